import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// imgproxy's animation limits: `IMGPROXY_MAX_ANIMATION_FRAMES` (default 1: every animation a still) keeps the
/// first N frames, the frames processed count together against the source resolution unless
/// `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION` checks each, and `@avif` of an animation is an AVIF sequence.
@Suite struct ProxyAnimationLimitTests {
    /// Five 60×40 frames of 0.1 s; frame `i` has its own colours (seed `i`).
    static func fiveFrames() throws -> Data { try Fixtures.animatedGIF(60, 40, frames: 5) }

    @Test func byDefaultAnAnimationIsItsFirstFrame() async throws {
        let configuration = ProxyHarness.configuration { $0.limits = ImageProxyConfiguration.Limits() }
        #expect(configuration.limits.maxAnimationFrames == 1)
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/anim.gif", try Self.fiveFrames(), contentType: "image/gif")
            for accept in ["", "image/webp,image/avif"] {
                let answer = try await harness.get(harness.signedPath("w:30", source: "/anim.gif"),
                                                   headers: accept.isEmpty ? [] : [("Accept", accept)])
                #expect(answer.status == 200)
                let image = try answer.image()
                #expect(image.frameCount == 1, "Accept: \(accept)")
                #expect(image.pixelSize == PixelSize(width: 30, height: 20))
            }
        }
    }

    @Test func theFirstFramesAreKept() async throws {
        let configuration = ProxyHarness.configuration { $0.limits.maxAnimationFrames = 3 }
        try await ProxyHarness.with(configuration) { harness in
            let source = try Self.fiveFrames()
            harness.serve("/anim.gif", source, contentType: "image/gif")
            let answer = try await harness.get(harness.signedPath("f:gif", source: "/anim.gif"))
            let result = try answer.image()
            #expect(result.frameCount == 3)
            let original = try CodersManager.shared.decode(source, options: ImageDecodeOptions())
            for index in 0..<3 {
                // GIF re-quantises: each frame is near its source frame and far from the next one.
                let pixels = result.frames[index].pixels
                #expect(Self.meanDifference(pixels, original.frames[index].pixels) < 3, "frame \(index)")
                #expect(Self.meanDifference(pixels, original.frames[index + 1].pixels) > 10, "frame \(index)")
                #expect(abs(result.frames[index].duration - 0.1) < 0.001)
            }
        }
    }

    /// The URL's `max_animation_frames` lowers the operator's, never raises it.
    @Test func theURLCanOnlyLowerTheFrameLimit() async throws {
        let configuration = ProxyHarness.configuration {
            $0.limits.maxAnimationFrames = 3
            $0.limits.allowsSecurityOptions = true
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/anim.gif", try Self.fiveFrames(), contentType: "image/gif")
            let two = try await harness.get(harness.signedPath("maf:2/f:gif", source: "/anim.gif"))
            #expect(try two.image().frameCount == 2)
            let capped = try await harness.get(harness.signedPath("maf:5/f:gif", source: "/anim.gif"))
            #expect(try capped.image().frameCount == 3)
        }
    }

    /// 60×40 = 2,400 pixels a frame: five frames are 12,000, four are 9,600.
    @Test func theFramesProcessedCountTogetherAgainstTheSourceResolution() async throws {
        for (frames, status) in [(5, 422), (4, 200)] {
            let configuration = ProxyHarness.configuration {
                $0.limits.maxSourcePixels = 10_000
                $0.limits.maxAnimationFrames = frames
            }
            try await ProxyHarness.with(configuration) { harness in
                harness.serve("/anim.gif", try Self.fiveFrames(), contentType: "image/gif")
                let answer = try await harness.get(harness.signedPath("f:gif", source: "/anim.gif"))
                #expect(answer.status == status, "\(frames) frames")
                if status == 422 { #expect(answer.text.contains("60x40 × 5")) }
            }
        }
    }

    /// With a frame resolution limit, each frame is checked against it instead of the frames together.
    @Test func aFrameResolutionLimitChecksEachFrame() async throws {
        for (framePixels, status) in [(2_000, 422), (2_400, 200)] {
            let configuration = ProxyHarness.configuration {
                $0.limits.maxSourcePixels = 10_000
                $0.limits.maxAnimationFrames = 5
                $0.limits.maxAnimationFramePixels = framePixels
            }
            try await ProxyHarness.with(configuration) { harness in
                harness.serve("/anim.gif", try Self.fiveFrames(), contentType: "image/gif")
                let answer = try await harness.get(harness.signedPath("f:gif", source: "/anim.gif"))
                #expect(answer.status == status, "\(framePixels) pixels a frame")
                if status == 200 { #expect(try answer.image().frameCount == 5) }
            }
        }
    }

    /// imgproxy flattens an animation to AVIF; named `@avif` here, it is an AVIF sequence of every frame
    /// processed, with their durations. Negotiated AVIF still never carries an animation.
    @Test func anAnimationNamedAVIFIsASequence() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/anim.gif", try Self.fiveFrames(), contentType: "image/gif")
            let answer = try await harness.get(harness.signedPath("rs:fit:30:30", source: "/anim.gif", ext: "avif"))
            #expect(answer.header("Content-Type") == "image/avif")
            let header = try CodersManager.shared.header(for: answer.body)
            #expect(header.frameCount == 5 && header.pixelSize == PixelSize(width: 30, height: 20))
            let sequence = try answer.image()
            #expect(sequence.frames.allSatisfy { abs($0.duration - 0.1) < 0.001 })
            let negotiated = try await harness.get(harness.signedPath("rs:fit:30:30", source: "/anim.gif"),
                                                   headers: [("Accept", "image/avif")])
            #expect(negotiated.header("Content-Type") == "image/gif")
            #expect(try negotiated.image().frameCount == 5)
        }
    }

    /// The mean absolute difference of two rasters' samples, as 8-bit RGBA.
    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        let x = a.converted(to: .rgba8), y = b.converted(to: .rgba8)
        return x.withUnsafeBytes { p in
            y.withUnsafeBytes { q in
                Double(zip(p, q).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, p.count))
            }
        }
    }

    /// The result pixel limit bounds every frame together: an enlarged 5-frame animation is scaled down to
    /// a fifth of the limit a frame (the soak benchmark's 14-frame GIF enlarged to 4096 px took 928 MB before).
    @Test func anEnlargedAnimationStaysWithinThePixelLimit() async throws {
        let configuration = ProxyHarness.configuration {
            $0.limits.maxAnimationFrames = 5
            $0.limits.maxOutputPixels = 60_000
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/anim.gif", try Self.fiveFrames(), contentType: "image/gif")
            let answer = try await harness.get(harness.signedPath("el:1/w:3000/f:gif", source: "/anim.gif"))
            let image = try answer.image()
            #expect(image.frameCount == 5)
            #expect(image.pixelSize.width * image.pixelSize.height <= 12_000)
            #expect(image.pixelSize.width >= 130)
        }
    }
}
