import Foundation
import Testing
import WebImage

/// Encoders poll the current ``WorkCancellation``: libwebp through its progress hook, the animation encoders
/// between frames, every encoder before it starts and before it hands its bytes back.
@Suite struct EncodeCancellationTests {
    typealias Support = CancellationTestSupport

    @Test(arguments: [ImageFormat.jpeg, .png, .gif, .webp, .avif, .heic, .jxl])
    func anAlreadyCancelledTokenStopsEveryEncoder(_ format: ImageFormat) throws {
        let image = Image(pixels: WebPTestImages.photo(width: 64, height: 48))
        let token = WorkCancellation()
        token.cancel()
        #expect(Support.isCancelled {
            try Support.under(token) { try Support.coder(for: format).encode(image, as: format, options: ImageEncodeOptions()) }
        })
        #expect(Support.isCancelled {
            try Support.under(token) { try CodersManager.shared.encode(image, as: format, options: ImageEncodeOptions()) }
        })
    }

    /// libwebp calls the progress hook as it encodes; cancelled halfway through those calls, it aborts.
    @Test(arguments: [false, true])
    func aWebPEncodeStopsMidway(lossless: Bool) throws {
        let image = Image(pixels: WebPTestImages.photo(width: 1000, height: 800))
        let options = ImageEncodeOptions(quality: 0.8, lossless: lossless)
        let whole = WorkCancellation()
        _ = try Support.under(whole) { try WebPCoder().encode(image, as: .webp, options: options) }
        #expect(whole.checkCount > 4)
        let stopped = WorkCancellation(checkLimit: whole.checkCount / 2)
        #expect(Support.isCancelled { try Support.under(stopped) { try WebPCoder().encode(image, as: .webp, options: options) } })
        #expect(stopped.checkCount < whole.checkCount)
    }

    @Test(arguments: [ImageFormat.gif, .png, .webp, .avif, .jxl])
    func anAnimationEncodeStopsBetweenFrames(_ format: ImageFormat) throws {
        let frames = (1...6).map {
            ImageFrame(pixels: WebPTestImages.photo(width: 48, height: 32, seed: UInt32($0)), duration: 0.1)
        }
        let image = Image(frames: frames)
        let coder = Support.coder(for: format)
        let whole = WorkCancellation()
        _ = try Support.under(whole) { try coder.encode(image, as: format, options: ImageEncodeOptions(quality: 0.9)) }
        #expect(whole.checkCount >= 6)
        let stopped = WorkCancellation(checkLimit: whole.checkCount / 2)
        #expect(Support.isCancelled {
            try Support.under(stopped) { try coder.encode(image, as: format, options: ImageEncodeOptions(quality: 0.9)) }
        })
        #expect(stopped.checkCount < whole.checkCount)
    }
}
