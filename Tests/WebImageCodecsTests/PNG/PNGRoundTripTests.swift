import Foundation
import Testing
import WebImage

/// Encoding then decoding gives back the same pixels.
@Suite struct PNGRoundTripTests {
    /// A raster whose every pixel differs, alpha included when `alpha`.
    static func pattern(width: Int, height: Int, alpha: Bool) -> PixelBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let a = alpha ? UInt8((x * 13 + y * 3) & 0xFF) : 255
                bytes += [UInt8((x * 7) & 0xFF), UInt8((y * 11) & 0xFF), UInt8(((x + y) * 5) & 0xFF), a]
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    @Test func rgbaWithVariedAlphaIsExact() throws {
        let pixels = Self.pattern(width: 37, height: 23, alpha: true)
        let png = try PNGCoder().encode(Image(pixels: pixels, hasAlpha: true), as: .png, options: .init())
        #expect(png[25] == 6, "written as RGBA")
        let decoded = try PNGCoder().decode(png, options: .init())
        #expect(decoded.pixels == pixels)
        #expect(decoded.hasAlpha && decoded.format == .png)
    }

    @Test func opaqueImageIsWrittenAsRGBAndIsExact() throws {
        let pixels = Self.pattern(width: 64, height: 40, alpha: false)
        let png = try PNGCoder().encode(Image(pixels: pixels, hasAlpha: false), as: .png, options: .init())
        #expect(png[25] == 2, "written as RGB")
        let decoded = try PNGCoder().decode(png, options: .init())
        #expect(decoded.pixels == pixels)
        #expect(!decoded.hasAlpha)
    }

    @Test func sixteenBitImagesAreWrittenAsEightBit() throws {
        let pixels = Self.pattern(width: 9, height: 5, alpha: true)
        let png = try PNGCoder().encode(Image(pixels: pixels.converted(to: .rgba16), hasAlpha: true), as: .png, options: .init())
        #expect(png[24] == 8)
        #expect(try PNGCoder().decode(png, options: .init()).pixels == pixels)
    }

    @Test func maxPixelSizeShrinksKeepingTheAspectRatio() throws {
        let image = Image(pixels: Self.pattern(width: 100, height: 50, alpha: false), hasAlpha: false)
        let png = try PNGCoder().encode(image, as: .png, options: .init(maxPixelSize: PixelSize(width: 40, height: 40)))
        #expect(try PNGCoder().decode(png, options: .init()).pixelSize == PixelSize(width: 40, height: 20))
    }

    @Test func registeredAndSniffed() throws {
        let png = try PNGCoder().encode(Image(pixels: Self.pattern(width: 3, height: 3, alpha: false), hasAlpha: false),
                                        as: .png, options: .init())
        #expect(ImageFormat(sniffing: png) == .png)
        #expect(BuiltInCoders.makeAll().contains { $0 is PNGCoder })
        #expect(!PNGCoder().canEncode(to: .jpeg))
        #expect(!PNGCoder().canDecode(Data("GIF89a".utf8)))
    }

    @Test func thumbnailDecodeIsResampledAndMarked() throws {
        let png = try PNGCoder().encode(Image(pixels: Self.pattern(width: 80, height: 40, alpha: false), hasAlpha: false),
                                        as: .png, options: .init())
        let image = try PNGCoder().decode(png, options: .init(thumbnailPixelSize: PixelSize(width: 20, height: 20)))
        #expect(image.pixelSize == PixelSize(width: 20, height: 10))
        #expect(image.isThumbnail)
    }
}
