import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct JXLAnimationTests {
    private let coder = JXLCoder()

    private func corpus(_ name: String) throws -> Data {
        try TestCorpus.data("jxl/\(name)")
    }

    /// `animation_icos4d`: 48 frames of 50 ms (jxlinfo), looping forever.
    @Test func animationDecodesEveryFrameWithDurations() throws {
        let image = try coder.decode(try corpus("animation_icos4d.jxl"), options: .init())
        #expect(image.frameCount == 48)
        #expect(image.frameDurations.allSatisfy { abs($0 - 0.05) < 1e-9 })
        #expect(image.loopCount == 0)
        #expect(image.hasAlpha)
        #expect(image.pixelSize == PixelSize(width: 128, height: 128))
    }

    /// Random access through the lazy decoder gives the frames the sequential decode gives.
    @Test func lazyFramesMatchTheOneShotDecode() throws {
        let data = try corpus("animation_spline.jxl")
        let all = try coder.decode(data, options: .init())
        let lazy = try coder.makeAnimatedDecoder(data, options: .init())
        #expect(lazy.frameCount == 60)
        #expect(lazy.format == .jxl)
        for index in [5, 6, 59, 0, 30, 30, 2] {
            #expect(try lazy.frame(at: index) == all.frames[index].pixels, "frame \(index)")
            #expect(lazy.frameDuration(at: index) == all.frames[index].duration)
        }
        #expect(throws: WebImageError.self) { try lazy.frame(at: 60) }
    }

    @Test func thumbnailScalesEveryFrame() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64))
        let image = try coder.decode(try corpus("animation_icos4d.jxl"), options: options)
        #expect(image.frameCount == 48)
        #expect(image.isThumbnail)
        #expect(image.frames.allSatisfy { $0.pixels.size == PixelSize(width: 64, height: 64) })
        let lazy = try coder.makeAnimatedDecoder(try corpus("animation_icos4d.jxl"), options: options)
        #expect(lazy.pixelSize == PixelSize(width: 64, height: 64))
        #expect(try lazy.frame(at: 47).size == PixelSize(width: 64, height: 64))
    }

    @Test func frameCountLimitRefusesBeforeDecoding() throws {
        let data = try corpus("animation_icos4d.jxl")
        let options = ImageDecodeOptions(maxFrameCount: 10)
        #expect(GIFTestSupport.badDataReason { _ = try coder.decode(data, options: options) } == .tooManyFrames(limit: 10))
        #expect(GIFTestSupport.badDataReason { _ = try coder.makeAnimatedDecoder(data, options: options) }
                == .tooManyFrames(limit: 10))
        // The first frame alone is within any limit.
        #expect(try coder.decode(data, options: .init(firstFrameOnly: true, maxFrameCount: 10)).frameCount == 1)
    }

    @Test func animationPixelBudgetRefusesBeforeDecoding() throws {
        let data = try corpus("animation_icos4d.jxl")
        let options = ImageDecodeOptions(maxAnimationPixelCount: 128 * 128 * 20)
        #expect(GIFTestSupport.badDataReason { _ = try coder.decode(data, options: options) }
                == .animationTooLarge(frameCount: 21, pixelCount: 128 * 128 * 21, limit: 128 * 128 * 20))
    }

    /// A small file with thousands of one-pixel frames is refused after the 1,000-frame budget's headers.
    @Test func thousandsOfTinyFramesAreRefused() throws {
        let frames = (0..<3_000).map { index in
            ImageFrame(pixels: PixelBuffer(width: 1, height: 1, bytes: [UInt8(index & 0xFF), 0, 0, 255]),
                       duration: 0.01)
        }
        let data = try coder.encode(Image(frames: frames), as: .jxl, options: .init(lossless: true, effort: .fastest))
        #expect(GIFTestSupport.badDataReason { _ = try coder.decode(data, options: .init()) }
                == .tooManyFrames(limit: 1_000))
    }
}
