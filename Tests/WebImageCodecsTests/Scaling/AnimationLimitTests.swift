import Foundation
import Testing
import TestSupport
import WebImage

/// Issue 12, defect 1, in process: every way into an animation (one-shot decode, frame-by-frame decoder,
/// ``AnimatedImage``, a GIF's partial images) refuses one over the limits before decoding a frame; the limits
/// can be raised; and a thumbnail of an animation keeps only scaled frames, each exactly the full-size frame
/// resampled.
@Suite struct AnimationLimitTests {
    /// 100×100 × 10 frames: 100,000 pixels to composite, against limits set around it.
    static let formats: [(name: String, coder: any AnimatedImageCoding, data: Data)] = [
        ("gif", GIFCoder(), AnimationBombs.gif(width: 100, height: 100, frames: 10)),
        ("apng", PNGCoder(), AnimationBombs.apng(width: 100, height: 100, frames: 10)),
        ("webp", WebPCoder(), AnimationBombs.webp(width: 100, height: 100, frames: 10)),
    ]

    @Test func overThePixelLimitIsRefusedEverywhere() {
        let limited = ImageDecodeOptions(maxAnimationPixelCount: 99_999)
        let expected = BadImageDataReason.animationTooLarge(frameCount: 10, pixelCount: 100_000, limit: 99_999)
        for (name, coder, data) in Self.formats {
            #expect(GIFTestSupport.badDataReason { _ = try coder.decode(data, options: limited) } == expected, "\(name)")
            #expect(GIFTestSupport.badDataReason { _ = try coder.makeAnimatedDecoder(data, options: limited) } == expected, "\(name)")
            #expect(GIFTestSupport.badDataReason { _ = try AnimatedImage(data: data, options: limited) } == expected, "\(name)")
            #expect(GIFTestSupport.badDataReason { _ = try CodersManager.shared.decode(data, options: limited) } == expected, "\(name)")
        }
    }

    @Test func overTheFrameLimitIsRefusedEverywhere() {
        let limited = ImageDecodeOptions(maxFrameCount: 9)
        for (name, coder, data) in Self.formats {
            #expect(GIFTestSupport.badDataReason { _ = try coder.decode(data, options: limited) } == .tooManyFrames(limit: 9), "\(name)")
            #expect(GIFTestSupport.badDataReason { _ = try coder.makeAnimatedDecoder(data, options: limited) } == .tooManyFrames(limit: 9), "\(name)")
        }
    }

    @Test func atTheLimitsOrFirstFrameOnlyDecodes() throws {
        for (name, coder, data) in Self.formats {
            let exact = ImageDecodeOptions(maxFrameCount: 10, maxAnimationPixelCount: 100_000)
            #expect(try coder.decode(data, options: exact).frameCount == 10, "\(name)")
            #expect(try coder.makeAnimatedDecoder(data, options: exact).frameCount == 10, "\(name)")
            // The first frame alone is one canvas: within the limits even when the animation is not.
            let first = ImageDecodeOptions(firstFrameOnly: true, maxFrameCount: 1, maxAnimationPixelCount: 1)
            #expect(try coder.decode(data, options: first).frameCount == 1, "\(name)")
        }
    }

    /// A GIF's partial images stop at the limits too, with the error the final decode gives.
    @Test func progressiveGIFStopsAtTheLimit() throws {
        let data = AnimationBombs.gif(width: 100, height: 100, frames: 10)
        let limited = ImageDecodeOptions(maxAnimationPixelCount: 50_000)
        let decoder = GIFCoder().makeProgressiveDecoder(options: limited)
        #expect(GIFTestSupport.badDataReason { _ = try decoder.decode(data, isFinished: false) }
            == .animationTooLarge(frameCount: 6, pixelCount: 60_000, limit: 50_000))
        #expect(try decoder.decode(data.prefix(data.count / 2), isFinished: false) == nil)
        #expect(GIFTestSupport.badDataReason { _ = try decoder.decode(data, isFinished: true) }
            == .animationTooLarge(frameCount: 10, pixelCount: 100_000, limit: 50_000))
    }

    /// A million one-pixel GIF frames (18 MB) are refused after the limit's worth of records.
    @Test func aMillionFramesStopAtTheFrameLimit() {
        let data = AnimationBombs.gif(width: 2, height: 2, frames: 1_000_000)
        let start = ContinuousClock.now
        #expect(GIFTestSupport.badDataReason { _ = try GIFCoder().decode(data, options: .init()) } == .tooManyFrames(limit: 1_000))
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    /// Thumbnails and scale-down of real animations: each frame is the full-size frame resampled, the lazy
    /// decoders give the same frames, and the durations and flags are those of the full decode.
    @Test func scaledAnimationsMatchTheFullFramesResampled() throws {
        let animations: [(any AnimatedImageCoding, Data)] = [
            (GIFCoder(), try GIFTestSupport.corpus("samples", "moon_impact.gif")),
            (PNGCoder(), try TestPaths.data(TestPaths.fixture("png", "pillow-animated.png"))),
            (WebPCoder(), try TestPaths.data(TestPaths.fixture("webp", "alpha_anim_img2webp.webp"))),
        ]
        for (coder, data) in animations {
            let full = try coder.decode(data, options: .init())
            for options in [ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 30, height: 30)),
                            ImageDecodeOptions(scaleDownLimitBytes: full.frameCount * 400)] {
                let target = try #require(options.targetSize(forSource: full.pixelSize, frameCount: full.frameCount))
                let scaled = try coder.decode(data, options: options)
                #expect(scaled.frames.map(\.pixels) == full.frames.map { Resampler.resample($0.pixels, to: target) })
                #expect(scaled.frameDurations == full.frameDurations && scaled.loopCount == full.loopCount)
                #expect(scaled.isThumbnail && scaled.hasAlpha == full.hasAlpha)
                let lazy = try coder.makeAnimatedDecoder(data, options: options)
                #expect(lazy.pixelSize == target)
                for index in [full.frameCount - 1, 0, 1] {
                    #expect(try lazy.frame(at: index) == scaled.frames[index].pixels, "frame \(index)")
                }
            }
        }
    }
}
