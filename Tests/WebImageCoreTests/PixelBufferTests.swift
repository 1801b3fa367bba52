import Foundation
import Testing
import WebImageCore

@Suite struct PixelBufferTests {
    /// A 3×2 raster whose pixel (x, y) is (10x+y, 100+x, 200+y, 255).
    private func numbered() -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<2 { for x in 0..<3 { bytes += [UInt8(10 * x + y), UInt8(100 + x), UInt8(200 + y), 255] } }
        return PixelBuffer(width: 3, height: 2, bytes: bytes)
    }

    @Test func pamMatchesDwebpLayout() {
        let pam = PixelBuffer(width: 2, height: 1, bytes: [1, 2, 3, 4, 5, 6, 7, 8]).pamData()
        let header = "P7\nWIDTH 2\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        #expect(pam == Data(header.utf8) + Data([1, 2, 3, 4, 5, 6, 7, 8]))
    }

    @Test func sixteenBitRoundsToNearestEightBit() {
        #expect(PixelBuffer.to8(0) == 0)
        #expect(PixelBuffer.to8(0xFFFF) == 255)
        #expect(PixelBuffer.to8(0x8080) == 128)
        #expect(PixelBuffer.to8(257 * 77 + 128) == 77)
        let wide = PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [0, 77, 200, 255]).converted(to: .rgba16)
        #expect(wide.format == .rgba16 && wide.bytes.count == 8)
        #expect(wide.converted(to: .rgba8).bytes == [0, 77, 200, 255])
    }

    @Test func transparencyIsDetected() {
        #expect(!numbered().containsTransparency)
        #expect(PixelBuffer(width: 1, height: 1, bytes: [0, 0, 0, 254]).containsTransparency)
    }

    /// Every EXIF orientation, checked by where the stored top-left pixel (0, 0) ends up.
    @Test(arguments: [
        (ImageOrientation.up, 3, 2, 0, 0), (.upMirrored, 3, 2, 2, 0), (.down, 3, 2, 2, 1), (.downMirrored, 3, 2, 0, 1),
        (.leftMirrored, 2, 3, 0, 0), (.right, 2, 3, 1, 0), (.rightMirrored, 2, 3, 1, 2), (.left, 2, 3, 0, 2),
    ])
    func orientationMovesTopLeftPixel(orientation: ImageOrientation, width: Int, height: Int, x: Int, y: Int) {
        let upright = numbered().applying(orientation)
        #expect(upright.width == width && upright.height == height)
        #expect(upright.rgba8(x: x, y: y) == [0, 100, 200, 255])
    }

    @Test func rightRotationIsClockwise() {
        // Orientation 6 (.right): the stored image must turn 90° clockwise; its bottom-left becomes top-left.
        let upright = numbered().applying(.right)
        #expect(upright.rgba8(x: 0, y: 0) == numbered().rgba8(x: 0, y: 1))
        #expect(upright.rgba8(x: 1, y: 2) == numbered().rgba8(x: 2, y: 0))
    }

    @Test func colourParsing() {
        #expect(RGBAColor(hex: "#ff000080") == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(RGBAColor(hex: "00ff00") == RGBAColor(red: 0, green: 255, blue: 0, alpha: 255))
        #expect(RGBAColor(hex: "#12345") == nil)
        #expect(RGBAColor(hex: "zzzzzz") == nil)
    }

    @Test func pixelSizeParsing() {
        #expect(PixelSize(parsing: "400x300") == PixelSize(width: 400, height: 300))
        #expect(PixelSize(parsing: "400X300") == PixelSize(width: 400, height: 300))
        #expect(PixelSize(parsing: "0x300") == nil)
        #expect(PixelSize(parsing: "400") == nil)
        #expect(PixelSize(parsing: "axb") == nil)
    }
}
