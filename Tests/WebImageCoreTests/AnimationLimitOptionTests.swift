import Testing
import WebImageCore

/// The animation limits of ``ImageDecodeOptions``: their defaults, what they refuse, and the messages.
@Suite struct AnimationLimitOptionTests {
    @Test func defaults() {
        let options = ImageDecodeOptions()
        #expect(options.maxFrameCount == 1_000)
        #expect(options.maxAnimationPixelCount == 250_000_000)
        #expect(options.maxPixelCount == 100_000_000)
    }

    @Test func framesWithinTheLimitsPass() throws {
        let options = ImageDecodeOptions()
        try options.checkAnimation(frameCount: 1_000, canvas: PixelSize(width: 500, height: 500))
        try options.checkAnimation(frameCount: 15, canvas: PixelSize(width: 4000, height: 4000))
        // A single frame is the per-frame limit's business, whatever its size.
        try ImageDecodeOptions(maxPixelCount: .max).checkAnimation(frameCount: 1, canvas: PixelSize(width: 30_000, height: 30_000))
    }

    @Test func tooManyFrames() {
        #expect(reason { try ImageDecodeOptions().checkAnimation(frameCount: 1_001, canvas: PixelSize(width: 1, height: 1)) }
            == .tooManyFrames(limit: 1_000))
        #expect(reason { try ImageDecodeOptions(maxFrameCount: 5).checkFrameCount(6) } == .tooManyFrames(limit: 5))
        #expect(reason { try ImageDecodeOptions(maxFrameCount: 5).checkFrameCount(5) } == nil)
    }

    @Test func tooManyPixelsInAll() {
        #expect(reason { try ImageDecodeOptions().checkAnimation(frameCount: 40, canvas: PixelSize(width: 4000, height: 4000)) }
            == .animationTooLarge(frameCount: 40, pixelCount: 640_000_000, limit: 250_000_000))
        // An overflowing product is over any limit.
        #expect(reason { try ImageDecodeOptions().checkAnimation(frameCount: .max, canvas: PixelSize(width: 2, height: 2)) }
            == .tooManyFrames(limit: 1_000))
        #expect(reason {
            try ImageDecodeOptions(maxFrameCount: .max).checkAnimation(frameCount: .max / 2, canvas: PixelSize(width: 4, height: 1))
        } == .animationTooLarge(frameCount: .max / 2, pixelCount: .max, limit: 250_000_000))
        // Raising the limit admits it.
        #expect(reason {
            try ImageDecodeOptions(maxAnimationPixelCount: 640_000_000).checkAnimation(frameCount: 40, canvas: PixelSize(width: 4000, height: 4000))
        } == nil)
    }

    @Test func messagesNameTheLimitAndHowToRaiseIt() {
        #expect(WebImageError.badImageData(.tooManyFrames(limit: 1_000)).description
            == "too many frames: the animation has more than 1000 (raise ImageDecodeOptions.maxFrameCount to decode it)")
        let large = WebImageError.badImageData(.animationTooLarge(frameCount: 40, pixelCount: 640_000_000, limit: 250_000_000))
        #expect(large.description == "animation too large: 40 frames × canvas = 640000000 pixels, over the limit of "
            + "250000000 (raise ImageDecodeOptions.maxAnimationPixelCount to decode it)")
        #expect(large.code == 1001)
    }

    private func reason(_ body: () throws -> Void) -> BadImageDataReason? {
        do {
            try body()
            return nil
        } catch WebImageError.badImageData(let reason) {
            return reason
        } catch {
            return nil
        }
    }
}
