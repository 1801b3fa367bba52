import Foundation
import Testing
import WebImage

/// HEIC encoding through libheif 1.15's x265 encoder and back.
@Suite struct HEIFEncodeTests {
    @Test func lossyRoundTripKeepsSizeAndAlpha() throws {
        let pixels = WebPTestImages.photo(width: 90, height: 60, alpha: true)
        let data = try HEIFCoder().encode(Image(pixels: pixels), as: .heic, options: .init(quality: 0.8))
        #expect(ImageFormat(sniffing: data) == .heic)
        let decoded = try CodersManager.shared.decode(data, options: .init())
        #expect(decoded.format == .heic)
        #expect(decoded.pixelSize == pixels.size)
        #expect(decoded.hasAlpha)
        #expect(WebPTestImages.psnr(decoded.pixels, pixels) > 30)
    }

    @Test func opaqueImagesAreWrittenWithoutAlpha() throws {
        let pixels = WebPTestImages.photo(width: 40, height: 30)
        let data = try HEIFCoder().encode(Image(pixels: pixels), as: .heif, options: .init(quality: 0.5, effort: .fastest))
        let decoded = try HEIFCoder().decode(data, options: .init())
        #expect(!decoded.hasAlpha)
        #expect(decoded.pixelSize == pixels.size)
    }

    /// x265's lossless mode on 4:4:4 with the identity matrix stores RGB as is.
    @Test func losslessRoundTripIsPixelExact() throws {
        let pixels = WebPTestImages.photo(width: 48, height: 32, alpha: true)
        let data = try HEIFCoder().encode(Image(pixels: pixels), as: .heic, options: .init(lossless: true))
        #expect(try HEIFCoder().decode(data, options: .init()).pixels == pixels)
    }

    @Test func lowerQualityMakesSmallerFiles() throws {
        let image = Image(pixels: WebPTestImages.photo(width: 128, height: 96))
        let high = try HEIFCoder().encode(image, as: .heic, options: .init(quality: 0.9))
        let low = try HEIFCoder().encode(image, as: .heic, options: .init(quality: 0.1))
        #expect(low.count < high.count)
    }

    /// libheif writes the orientation as `irot`/`imir` and applies them when decoding.
    @Test(arguments: ImageOrientation.allCases)
    func orientationIsKept(orientation: ImageOrientation) throws {
        let pixels = WebPTestImages.photo(width: 20, height: 12)
        let data = try HEIFCoder().encode(Image(pixels: pixels, orientation: orientation), as: .heic,
                                          options: .init(lossless: true))
        let decoded = try HEIFCoder().decode(data, options: .init())
        #expect(decoded.orientation == .up)
        #expect(decoded.pixels == pixels.applying(orientation))
    }

    /// libheif 1.15 writes no sequences: an animation is written as its first frame.
    @Test func animationsAreWrittenAsTheFirstFrame() throws {
        let frames = (1...3).map { ImageFrame(pixels: WebPTestImages.photo(width: 16, height: 16, seed: UInt32($0)),
                                              duration: 0.1) }
        let data = try HEIFCoder().encode(Image(frames: frames), as: .heic, options: .init(lossless: true))
        let decoded = try HEIFCoder().decode(data, options: .init())
        #expect(decoded.frameCount == 1)
        #expect(decoded.pixels == frames[0].pixels)
    }

    @Test func otherFormatsAreRefused() {
        let image = Image(pixels: WebPTestImages.solid(width: 2, height: 2, [1, 2, 3, 255]))
        #expect(HEIFCoder().canEncode(to: .heic) && HEIFCoder().canEncode(to: .heif) && !HEIFCoder().canEncode(to: .avif))
        #expect(throws: WebImageError.self) { try HEIFCoder().encode(image, as: .jpeg, options: .init()) }
    }
}
