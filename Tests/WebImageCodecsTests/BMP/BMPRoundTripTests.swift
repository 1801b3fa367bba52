import Foundation
import TestSupport
import Testing
import WebImage

/// Encode → decode through the BMP coder, the layouts the encoder picks, and damaged files.
@Suite struct BMPRoundTripTests {
    static func pattern(width: Int, height: Int, alpha: Bool) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in bytes.indices {
            let mixed: Int = ((i) &* 131) ^ (i >> 5)
            bytes[i] = i % 4 == 3 ? (alpha ? UInt8((i / 4 * 37) % 256) : 255) : UInt8(mixed & 0xFF)
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    @Test(arguments: [(1, 1), (3, 2), (31, 17), (256, 255)])
    func opaqueImagesAre24BitAndLossless(width: Int, height: Int) throws {
        let pixels = Self.pattern(width: width, height: height, alpha: false)
        let data = try BMPCoder().encode(Image(pixels: pixels), as: .bmp, options: .init())
        #expect(data.count == 54 + (width * 3 + 3) / 4 * 4 * height)
        #expect(data[28] == 24 && data[14] == 40)
        let decoded = try CodersManager.shared.decode(data, options: .init())
        #expect(decoded.format == .bmp && decoded.pixels == pixels && !decoded.hasAlpha)
    }

    @Test func transparentImagesAre32BitWithAnAlphaMask() throws {
        let pixels = Self.pattern(width: 19, height: 11, alpha: true)
        let data = try BMPCoder().encode(Image(pixels: pixels), as: .bmp, options: .init())
        #expect(data[28] == 32 && data[14] == 108 && data[30] == 3)
        let decoded = try BMPCoder().decode(data, options: .init())
        #expect(decoded.pixels == pixels && decoded.hasAlpha)
        #expect(try BMPCoder().header(data).hasAlpha)
    }

    @Test func profileIsEmbeddedInAV5Header() throws {
        let pixels = Self.pattern(width: 5, height: 4, alpha: false)
        let image = Image(frames: [ImageFrame(pixels: pixels)], iccProfile: TestProfiles.adobeRGB)
        let data = try BMPCoder().encode(image, as: .bmp, options: .init())
        #expect(data[14] == 124)
        let decoded = try BMPCoder().decode(data, options: .init(colorSpace: .preserve))
        #expect(decoded.pixels == pixels && decoded.iccProfile == TestProfiles.adobeRGB)
        #expect(try BMPCoder().header(data).hasColorDescription)
    }

    @Test func orientationIsWrittenAsUprightPixels() throws {
        let pixels = Self.pattern(width: 6, height: 3, alpha: false)
        let data = try BMPCoder().encode(Image(pixels: pixels, orientation: .left), as: .bmp, options: .init())
        #expect(try BMPCoder().decode(data, options: .init()).pixels == pixels.applying(.left))
    }

    @Test func truncatedFilesAreTypedErrors() throws {
        for file in ["g/rgb24.bmp", "g/pal8rle.bmp", "g/pal4rle.bmp", "g/pal8v5.bmp", "g/rgb16-565.bmp"] {
            let data = try TestCorpus.data("bmpsuite/\(file)")
            for length in [0, 1, 2, 14, 20, 54, data.count / 2, data.count - 3] {
                #expect(throws: WebImageError.self, "\(file) cut at \(length)") {
                    _ = try BMPCoder().decode(data.prefix(length), options: .init())
                }
            }
        }
    }

    @Test func declaredSizesAreCheckedBeforeAllocating() throws {
        let data = try TestCorpus.data("bmpsuite/b/reallybig.bmp")
        #expect(badImageDataDescription { _ = try BMPCoder().decode(data, options: .init()) }
                == BadImageDataReason.tooManyPixels(width: 3_000_000, height: 2_000_000, limit: 100_000_000).description)
        // Within the pixel limit but with rows the file does not hold: refused as truncated, before allocating.
        var bytes = [UInt8](try TestCorpus.data("bmpsuite/g/rgb24.bmp"))
        bytes.replaceSubrange(18..<26, with: [0x10, 0x27, 0, 0, 0x10, 0x27, 0, 0])  // 10000 x 10000
        #expect(badImageDataDescription { _ = try BMPCoder().decode(Data(bytes), options: .init()) }
                == BadImageDataReason.truncated.description)
    }
}
