import Foundation
import Testing
import TestSupport
import WebImage

/// Encode → decode through the TIFF coder: lossless RGBA8, alpha only when present, orientation applied, the
/// profile written back.
@Suite struct TIFFRoundTripTests {
    static func pattern(width: Int, height: Int, alpha: Bool, seed: Int = 0) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in bytes.indices {
            let mixed: Int = ((i + seed * 977) &* 131) ^ (i >> 5)
            bytes[i] = i % 4 == 3 ? (alpha ? UInt8((i / 4 * 37) % 256) : 255) : UInt8(mixed & 0xFF)
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    @Test(arguments: [false, true], [ImageEncodeEffort.fastest, .balanced])
    func pixelsSurvive(alpha: Bool, effort: ImageEncodeEffort) throws {
        let pixels = Self.pattern(width: 301, height: 217, alpha: alpha)
        let data = try TIFFCoder().encode(Image(pixels: pixels), as: .tiff, options: .init(effort: effort))
        #expect(ImageFormat(sniffing: data) == .tiff)
        let decoded = try CodersManager.shared.decode(data, options: .init())
        #expect(decoded.format == .tiff && decoded.pixels == pixels && decoded.hasAlpha == alpha)
        #expect(data.count < pixels.bytes.count)
    }

    @Test func framesBecomePages() throws {
        let frames = (0..<3).map { ImageFrame(pixels: Self.pattern(width: 20, height: 10, alpha: false, seed: $0)) }
        let data = try TIFFCoder().encode(Image(frames: frames), as: .tiff, options: .init())
        let decoded = try TIFFCoder().decode(data, options: .init())
        #expect(decoded.frames.map(\.pixels) == frames.map(\.pixels))
        #expect(try TIFFCoder().header(data).frameCount == 3)
        let first = try TIFFCoder().encode(Image(frames: frames), as: .tiff, options: .init(firstFrameOnly: true))
        #expect(try TIFFCoder().header(first).frameCount == 1)
    }

    @Test func orientationIsWrittenAsUprightPixels() throws {
        let pixels = Self.pattern(width: 13, height: 7, alpha: false)
        let data = try TIFFCoder().encode(Image(pixels: pixels, orientation: .right), as: .tiff, options: .init())
        let decoded = try TIFFCoder().decode(data, options: .init())
        #expect(decoded.orientation == .up && decoded.pixels == pixels.applying(.right))
    }

    @Test func sixteenBitAndProfileRoundTrip() throws {
        let pixels = Self.pattern(width: 9, height: 5, alpha: true)
        let image = Image(frames: [ImageFrame(pixels: pixels.converted(to: .rgba16))], iccProfile: TestProfiles.adobeRGB)
        let data = try TIFFCoder().encode(image, as: .tiff, options: .init())
        let decoded = try TIFFCoder().decode(data, options: .init(colorSpace: .preserve))
        #expect(decoded.pixels == pixels && decoded.iccProfile == TestProfiles.adobeRGB)
    }

    @Test func otherFormatsAreRefused() {
        #expect(throws: WebImageError.self) {
            try TIFFCoder().encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .png, options: .init())
        }
    }
}
