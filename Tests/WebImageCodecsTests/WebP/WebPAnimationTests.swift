import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct WebPAnimationTests {
    private let coder = WebPCoder()

    /// Three 40×30 frames: a photo, the photo with a darker block, and one with a transparent band.
    private func frames() -> [ImageFrame] {
        let first = WebPTestImages.photo(width: 40, height: 30, seed: 7)
        var second = first, third = first
        second.withUnsafeMutableBytes { raw in
            for y in 5..<15 { for x in 10..<30 { for c in 0..<3 { raw[(y * 40 + x) * 4 + c] /= 2 } } }
        }
        third.withUnsafeMutableBytes { raw in
            for y in 20..<30 { for x in 0..<40 { raw[(y * 40 + x) * 4 + 3] = 128 } }
        }
        return [ImageFrame(pixels: first, duration: 0.05), ImageFrame(pixels: second, duration: 0.123),
                ImageFrame(pixels: third, duration: 0.2)]
    }

    private func encodedAnimation(loopCount: Int = 3) throws -> Data {
        let image = Image(frames: frames(), loopCount: loopCount, hasAlpha: true)
        return try coder.encode(image, as: .webp, options: ImageEncodeOptions(lossless: true))
    }

    @Test func losslessAnimationRoundTrips() throws {
        let decoded = try coder.decode(try encodedAnimation(), options: .init())
        #expect(decoded.frameCount == 3)
        #expect(decoded.loopCount == 3)
        #expect(decoded.frameDurations == [0.05, 0.123, 0.2])
        #expect(decoded.hasAlpha)
        #expect(decoded.frames.map(\.pixels) == frames().map(\.pixels))
    }

    @Test func loopCountOptionOverridesTheImagesOwn() throws {
        let image = Image(frames: frames(), loopCount: 3, hasAlpha: true)
        let data = try coder.encode(image, as: .webp, options: ImageEncodeOptions(lossless: true, loopCount: 0))
        #expect(try coder.decode(data, options: .init()).loopCount == 0)
    }

    @Test func lossyAnimationKeepsTimingAndLooksRight() throws {
        let image = Image(frames: frames(), loopCount: 1, hasAlpha: true)
        let decoded = try coder.decode(try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: 0.9)),
                                       options: .init())
        #expect(decoded.frameCount == 3)
        #expect(decoded.loopCount == 1)
        #expect(decoded.frameDurations == [0.05, 0.123, 0.2])
        for (ours, original) in zip(decoded.frames, frames()) {
            #expect(WebPTestImages.psnr(ours.pixels, original.pixels) >= 30)
        }
    }

    @Test func shortDurationsShowForATenthOfASecond() throws {
        var short = frames()
        short[0].duration = 0.005
        short[1].duration = 0
        short[2].duration = 0.011
        let data = try coder.encode(Image(frames: short, hasAlpha: true), as: .webp,
                                    options: ImageEncodeOptions(lossless: true))
        #expect(try coder.decode(data, options: .init()).frameDurations == [0.1, 0.1, 0.011])
    }

    @Test func firstFrameOnlyDecodesAStill() throws {
        let decoded = try coder.decode(try encodedAnimation(), options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(decoded.frameCount == 1)
        #expect(decoded.pixels == frames()[0].pixels)
        let encoded = try coder.encode(Image(frames: frames(), hasAlpha: true), as: .webp,
                                       options: ImageEncodeOptions(lossless: true, firstFrameOnly: true))
        let still = try coder.decode(encoded, options: .init())
        #expect(still.frameCount == 1)
        #expect(still.pixels == frames()[0].pixels)
    }

    @Test func animatedThumbnailShrinksEveryFrame() throws {
        let decoded = try coder.decode(try encodedAnimation(),
                                       options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 20, height: 20)))
        #expect(decoded.frameCount == 3)
        #expect(decoded.frames.allSatisfy { $0.pixels.size == PixelSize(width: 20, height: 15) })
        #expect(decoded.isThumbnail)
    }

    @Test func lazyDecoderMatchesFullDecodeInAnyOrder() throws {
        let data = try encodedAnimation()
        let full = try coder.decode(data, options: .init())
        let lazy = try coder.makeAnimatedDecoder(data, options: .init())
        #expect(lazy.format == .webp)
        #expect(lazy.frameCount == 3)
        #expect(lazy.loopCount == 3)
        #expect(lazy.pixelSize == PixelSize(width: 40, height: 30))
        #expect(lazy.hasAlpha)
        #expect((0..<3).map(lazy.frameDuration(at:)) == [0.05, 0.123, 0.2])
        for index in [2, 0, 1, 1, 2, 0] {
            #expect(try lazy.frame(at: index) == full.frames[index].pixels)
        }
        #expect(throws: WebImageError.self) { try lazy.frame(at: 3) }
        #expect(throws: WebImageError.self) { try lazy.frame(at: -1) }
    }

    @Test func lazyDecoderIsSafeAcrossThreads() async throws {
        let data = try encodedAnimation()
        let expected = try coder.decode(data, options: .init()).frames.map(\.pixels)
        let lazy = try coder.makeAnimatedDecoder(data, options: .init())
        let matches = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask { try (0..<6).allSatisfy { try lazy.frame(at: ($0 + task) % 3) == expected[($0 + task) % 3] } }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(matches)
    }

    @Test func stillWebPReadsAsOneFrameAnimation() throws {
        let data = try TestCorpus.data("webp/test.webp")
        let lazy = try coder.makeAnimatedDecoder(data, options: .init())
        #expect(lazy.frameCount == 1)
        #expect(try lazy.frame(at: 0) == coder.decode(data, options: .init()).pixels)
    }

    @Test func truncatedAnimationIsATypedError() throws {
        let data = try encodedAnimation()
        for length in [30, data.count / 2, data.count - 3] {
            #expect(throws: WebImageError.self) { try coder.decode(data.prefix(length), options: .init()) }
        }
    }
}
