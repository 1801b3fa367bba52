import Foundation
import Testing
import WebImage

/// One-shot decoding of every JPEG flavour, checked against libjpeg-turbo's own `djpeg` output.
@Suite struct JPEGDecodeTests {
    @Test func baselineDecodesOpaqueRGBAtFullSize() throws {
        let data = try JPEGTestSupport.baselineJPEG(width: 256, height: 256)
        let image = try JPEGCoder().decode(data, options: .init())
        #expect(image.format == .jpeg)
        #expect(image.pixelSize == PixelSize(width: 256, height: 256))
        #expect(image.pixelFormat == .rgba8)
        #expect(!image.hasAlpha && !image.isIncremental && !image.isThumbnail)
        #expect(!image.pixels.containsTransparency)
        #expect(image.orientation == .up)
    }

    /// progressive-512.jpg: `cjpeg -progressive -quality 95` (10 scans); `djpeg -pnm` gives FNV-1a
    /// 0xce5ec2f37bc6f251 over its RGB bytes, (240, 200, 40) at the centre and (255, 255, 115) bottom right.
    @Test func progressiveMatchesDjpeg() throws {
        let image = try JPEGCoder().decode(JPEGTestSupport.fixture("progressive-512.jpg"), options: .init())
        #expect(image.pixelSize == PixelSize(width: 512, height: 512))
        #expect(JPEGTestSupport.rgbChecksum(image.pixels) == 0xce5e_c2f3_7bc6_f251)
        #expect(image.pixels.rgba8(x: 255, y: 255) == [240, 200, 40, 255])
        #expect(image.pixels.rgba8(x: 511, y: 511) == [255, 255, 115, 255])
    }

    /// gray-64x48.jpg: `cjpeg -grayscale -quality 90`; `djpeg -pnm` gives grey 80 at (10, 20), 90 at
    /// (63, 47) and FNV-1a 0xed742fdc5cec16b3 over the grey replicated to RGB.
    @Test func grayscaleExpandsToRGB() throws {
        let image = try JPEGCoder().decode(JPEGTestSupport.fixture("gray-64x48.jpg"), options: .init())
        #expect(image.pixelSize == PixelSize(width: 64, height: 48))
        #expect(image.pixels.rgba8(x: 10, y: 20) == [80, 80, 80, 255])
        #expect(image.pixels.rgba8(x: 63, y: 47) == [90, 90, 90, 255])
        #expect(JPEGTestSupport.rgbChecksum(image.pixels) == 0xed74_2fdc_5cec_16b3)
        #expect(!image.hasAlpha)
    }

    /// cmyk-adobe-32x32.jpg: four 16×16 quadrants converted by ImageMagick (`-colorspace CMYK`), stored as
    /// Adobe-inverted YCCK. `djpeg -pnm` (libjpeg-turbo 2.1.5's CMYK → RGB) gives exactly these values;
    /// ImageMagick's own conversion back to sRGB differs by at most 1.
    @Test func adobeCMYKConvertsToRGB() throws {
        let image = try JPEGCoder().decode(JPEGTestSupport.fixture("cmyk-adobe-32x32.jpg"), options: .init())
        #expect(image.pixelSize == PixelSize(width: 32, height: 32))
        #expect(image.pixels.rgba8(x: 8, y: 8) == [200, 40, 41, 255])
        #expect(image.pixels.rgba8(x: 24, y: 8) == [40, 160, 61, 255])
        #expect(image.pixels.rgba8(x: 8, y: 24) == [30, 60, 200, 255])
        #expect(image.pixels.rgba8(x: 24, y: 24) == [250, 220, 121, 255])
        #expect(image.pixels.rgba8(x: 0, y: 0) == [200, 40, 41, 255])
        #expect(image.pixels.rgba8(x: 31, y: 31) == [250, 220, 121, 255])
        #expect(!image.hasAlpha)
    }

    @Test func registeredInSharedManager() throws {
        let data = try JPEGTestSupport.baselineJPEG(width: 40, height: 30)
        #expect(CodersManager.shared.canDecode(data))
        #expect(CodersManager.shared.canEncode(to: .jpeg))
        let image = try CodersManager.shared.decode(data, options: .init(cacheKey: "https://x.test/a@2x.jpg"))
        #expect(image.pixelSize == PixelSize(width: 40, height: 30))
        #expect(image.scale == 2)
        #expect(CodersManager.shared.progressiveDecoder(for: data.prefix(10), options: .init()) != nil)
    }

    @Test func signatureCheck() {
        let coder = JPEGCoder()
        #expect(coder.canDecode(Data([0xFF, 0xD8, 0xFF, 0xE0])))
        #expect(!coder.canDecode(Data([0xFF, 0xD8])))
        #expect(!coder.canDecode(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect(coder.canDecodeIncrementally(Data([0xFF, 0xD8])))
        #expect(!coder.canDecodeIncrementally(Data([0xFF])))
        #expect(!coder.canEncode(to: .png))
    }
}
