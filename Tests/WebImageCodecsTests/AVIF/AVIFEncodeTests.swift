import Foundation
import Testing
import WebImage

/// AVIF encoding through libavif 0.11 and back: size, alpha, orientation, frames and durations kept; lossless
/// pixel-exact.
@Suite struct AVIFEncodeTests {
    @Test func losslessRoundTripIsPixelExact() throws {
        let pixels = WebPTestImages.photo(width: 67, height: 41, alpha: true)
        let data = try AVIFCoder().encode(Image(pixels: pixels), as: .avif, options: .init(lossless: true))
        #expect(ImageFormat(sniffing: data) == .avif)
        let decoded = try CodersManager.shared.decode(data, options: .init())
        #expect(decoded.format == .avif)
        #expect(decoded.hasAlpha)
        #expect(decoded.pixels == pixels)
    }

    @Test(arguments: [ImageEncodeEffort.fastest, .balanced])
    func lossyRoundTripKeepsSizeAndAlpha(effort: ImageEncodeEffort) throws {
        let pixels = WebPTestImages.photo(width: 96, height: 64, alpha: true)
        let data = try AVIFCoder().encode(Image(pixels: pixels), as: .avif, options: .init(quality: 0.8, effort: effort))
        let decoded = try AVIFCoder().decode(data, options: .init())
        #expect(decoded.pixelSize == pixels.size)
        #expect(decoded.hasAlpha)
        #expect(WebPTestImages.psnr(decoded.pixels, pixels) > 30)
        #expect(maxChannelDifference(PixelBuffer(width: 96, height: 64, bytes: alphaOnly(decoded.pixels)),
                                     PixelBuffer(width: 96, height: 64, bytes: alphaOnly(pixels))) <= 8)
    }

    @Test func lowerQualityMakesSmallerFiles() throws {
        let image = Image(pixels: WebPTestImages.photo(width: 128, height: 96))
        let high = try AVIFCoder().encode(image, as: .avif, options: .init(quality: 0.9))
        let low = try AVIFCoder().encode(image, as: .avif, options: .init(quality: 0.2))
        #expect(low.count < high.count)
        #expect(try !AVIFCoder().decode(low, options: .init()).hasAlpha)
    }

    /// The orientation is written as `irot`/`imir`; the decoder applies them, so the result is the upright
    /// image with orientation `.up`.
    @Test(arguments: ImageOrientation.allCases)
    func orientationIsKept(orientation: ImageOrientation) throws {
        let pixels = WebPTestImages.photo(width: 20, height: 12)
        let data = try AVIFCoder().encode(Image(pixels: pixels, orientation: orientation), as: .avif,
                                          options: .init(lossless: true))
        let decoded = try AVIFCoder().decode(data, options: .init())
        #expect(decoded.orientation == .up)
        #expect(decoded.pixels == pixels.applying(orientation))
    }

    @Test func sequenceRoundTripKeepsFramesAndDurations() throws {
        let durations = [0.1, 0.25, 0.04]
        let frames = durations.enumerated().map { index, duration in
            ImageFrame(pixels: WebPTestImages.photo(width: 32, height: 24, alpha: true, seed: UInt32(index + 1)),
                       duration: duration)
        }
        let data = try AVIFCoder().encode(Image(frames: frames), as: .avif, options: .init(lossless: true))
        #expect(ImageFormat(sniffing: data) == .avif)
        let decoded = try CodersManager.shared.decode(data, options: .init())
        #expect(decoded.frameCount == 3)
        #expect(decoded.loopCount == 0)
        #expect(decoded.hasAlpha)
        for (index, frame) in decoded.frames.enumerated() {
            #expect(abs(frame.duration - durations[index]) < 0.0005)
            #expect(frame.pixels == frames[index].pixels)
        }
        let first = try AVIFCoder().encode(Image(frames: frames), as: .avif,
                                           options: .init(lossless: true, firstFrameOnly: true))
        #expect(try AVIFCoder().decode(first, options: .init()).frameCount == 1)
    }

    @Test func sixteenBitImagesKeepSixteenBitStorage() throws {
        let pixels = WebPTestImages.photo(width: 24, height: 16).converted(to: .rgba16)
        let data = try AVIFCoder().encode(Image(pixels: pixels), as: .avif, options: .init(quality: 0.9))
        let decoded = try AVIFCoder().decode(data, options: .init())
        #expect(decoded.pixelFormat == .rgba16)
        #expect(WebPTestImages.psnr(decoded.pixels.converted(to: .rgba8), pixels.converted(to: .rgba8)) > 30)
    }

    @Test func maxPixelSizeShrinksBeforeEncoding() throws {
        let image = Image(pixels: WebPTestImages.photo(width: 100, height: 50))
        let data = try AVIFCoder().encode(image, as: .avif, options: .init(quality: 0.5, maxPixelSize: .init(width: 40, height: 40)))
        #expect(try AVIFCoder().decode(data, options: .init()).pixelSize == PixelSize(width: 40, height: 20))
    }

    @Test func otherFormatsAreRefused() {
        let image = Image(pixels: WebPTestImages.solid(width: 2, height: 2, [1, 2, 3, 255]))
        #expect(AVIFCoder().canEncode(to: .avif) && !AVIFCoder().canEncode(to: .heic))
        #expect(throws: WebImageError.self) { try AVIFCoder().encode(image, as: .png, options: .init()) }
    }

    private func alphaOnly(_ pixels: PixelBuffer) -> [UInt8] {
        pixels.bytes.enumerated().map { $0.offset % 4 == 3 ? $0.element : 0 }
    }
}
