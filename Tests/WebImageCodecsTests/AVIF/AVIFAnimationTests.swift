import Foundation
import TestSupport
import Testing
import WebImage

/// Animated AVIF (`avis`) through the lazy animated decoder, `AnimatedImage` and the animation limits.
@Suite struct AVIFAnimationTests {
    static let files = ["colors-animated-8bpc.avif", "colors-animated-12bpc-keyframes-0-2-3.avif"]

    private func corpus(_ name: String) throws -> Data {
        try TestCorpus.data("avif/\(name)")
    }

    /// Lazy frames, in any order, equal the one-shot decode's frames.
    @Test(arguments: files)
    func lazyFramesMatchTheOneShotDecode(file: String) throws {
        let data = try corpus(file)
        let whole = try AVIFCoder().decode(data, options: .init())
        let lazy = try #require(try CodersManager.shared.animatedDecoder(for: data, options: .init()))
        #expect(lazy.format == .avif)
        #expect(lazy.frameCount == 5)
        #expect(lazy.loopCount == 0)
        #expect(lazy.pixelSize == whole.pixelSize)
        #expect(lazy.hasAlpha == whole.hasAlpha)
        for index in [4, 0, 2, 3, 1, 1] {
            #expect(try lazy.frame(at: index) == whole.frames[index].pixels)
            #expect(lazy.frameDuration(at: index) == whole.frames[index].duration)
        }
        #expect(throws: WebImageError.self) { try lazy.frame(at: 5) }
    }

    @Test func animatedImageReadsTheSequence() throws {
        let data = try corpus(Self.files[0])
        let animation = try AnimatedImage(data: data)
        #expect(animation.format == .avif)
        #expect(animation.isAnimated)
        #expect(animation.frameCount == 5)
        #expect(animation.pixelSize == PixelSize(width: 150, height: 150))
        let whole = try AVIFCoder().decode(data, options: .init())
        #expect(whole.frameDurations.allSatisfy { $0 > 0 })
    }

    @Test func firstFrameOnlyGivesOneFrame() throws {
        let data = try corpus(Self.files[0])
        let options = ImageDecodeOptions(firstFrameOnly: true)
        let image = try AVIFCoder().decode(data, options: options)
        #expect(image.frameCount == 1)
        #expect(try AVIFCoder().makeAnimatedDecoder(data, options: options).frameCount == 1)
    }

    @Test func frameCountLimitIsCheckedFromTheHeader() throws {
        let data = try corpus(Self.files[0])
        let options = ImageDecodeOptions(maxFrameCount: 4)
        for attempt in [{ _ = try AVIFCoder().decode(data, options: options) },
                        { _ = try AVIFCoder().makeAnimatedDecoder(data, options: options) }] {
            do {
                try attempt()
                Issue.record("a 5-frame sequence passed a 4-frame limit")
            } catch let error as WebImageError {
                #expect(error.description == BadImageDataReason.tooManyFrames(limit: 4).description)
            }
        }
    }

    /// A real 1,001-frame sequence (tiny frames, written by our encoder) is refused from its sample table by
    /// the default 1,000-frame limit, before any frame is decoded; with `firstFrameOnly` it decodes.
    @Test func defaultFrameLimitRefusesALongSequence() throws {
        let frame = ImageFrame(pixels: WebPTestImages.solid(width: 2, height: 2, [200, 10, 10, 255]), duration: 0.01)
        let data = try AVIFCoder().encode(Image(frames: Array(repeating: frame, count: 1_001)), as: .avif,
                                          options: .init(quality: 0.5, effort: .fastest))
        for attempt in [{ _ = try AVIFCoder().decode(data, options: .init()) },
                        { _ = try AnimatedImage(data: data) }] {
            do {
                try attempt()
                Issue.record("a 1,001-frame sequence passed the default limit")
            } catch let error as WebImageError {
                #expect(error.description == BadImageDataReason.tooManyFrames(limit: 1_000).description)
            }
        }
        #expect(try AVIFCoder().decode(data, options: .init(firstFrameOnly: true)).frameCount == 1)
    }

    @Test func animationPixelLimitIsCheckedFromTheHeader() throws {
        let data = try corpus(Self.files[0])
        do {
            _ = try AVIFCoder().decode(data, options: .init(maxAnimationPixelCount: 100_000))
            Issue.record("5 × 150 × 150 passed a 100,000-pixel animation limit")
        } catch let error as WebImageError {
            #expect(error.description == BadImageDataReason.animationTooLarge(frameCount: 5, pixelCount: 112_500,
                                                                              limit: 100_000).description)
        }
    }

    @Test func thumbnailsScaleEveryFrame() throws {
        let data = try corpus(Self.files[0])
        let options = ImageDecodeOptions(thumbnailPixelSize: .init(width: 50, height: 50))
        let image = try AVIFCoder().decode(data, options: options)
        #expect(image.frameCount == 5)
        #expect(image.isThumbnail)
        #expect(image.frames.allSatisfy { $0.pixels.size == PixelSize(width: 50, height: 50) })
        let lazy = try AVIFCoder().makeAnimatedDecoder(data, options: options)
        #expect(lazy.pixelSize == PixelSize(width: 50, height: 50))
        #expect(try lazy.frame(at: 3) == image.frames[3].pixels)
    }
}
