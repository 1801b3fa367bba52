import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// Video sources: off unless the operator turns them on, then read in `webimage video-frame` children; the
/// frame imgproxy Pro's `video_thumbnail_second` and `video_thumbnail_keyframes` name, processed like an image.
@Suite struct ProxyVideoTests {
    /// The harness's configuration with video sources on, read by the built `webimage`.
    static func configuration(_ adjust: (inout ImageProxyConfiguration) -> Void = { _ in }) throws -> ImageProxyConfiguration {
        let executable = try BuiltExecutable.url("webimage")
        return ProxyHarness.configuration {
            $0.processing.readsVideo = true
            $0.processing.videoThumbnails.child.executable = executable
            adjust(&$0)
        }
    }

    /// The centre pixel's red: 8 × the grey ramp's frame number.
    private func grey(_ image: Image) -> Int {
        let pixels = image.pixels.converted(to: .rgba8)
        return Int(pixels.bytes[(pixels.height / 2 * pixels.width + pixels.width / 2) * 4])
    }

    @Test func videoSourcesAreRefusedUnlessTurnedOn() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        try await ProxyHarness.with { harness in
            harness.serve("/clip.mp4", video, contentType: "video/mp4")
            let answer = try await harness.get(harness.signedPath("w:32", source: "/clip.mp4", ext: "png"))
            #expect(answer.status == 422)
            #expect(answer.text.contains("video sources are off"), "\(answer.text)")
        }
    }

    @Test func theFrameAtTheSecondAskedForIsProcessed() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        try await ProxyHarness.with(try Self.configuration { $0.processing.videoThumbnails.second = 2 }) { harness in
            harness.serve("/clip.mp4", video, contentType: "video/mp4")
            // The operator's second (2 s: frame 20), as a JPEG when the URL names no format.
            let plain = try await harness.get(harness.signedPath("w:32", source: "/clip.mp4"))
            #expect(plain.status == 200, "\(plain.text)")
            #expect(plain.header("Content-Type") == "image/jpeg")
            let image = try plain.image()
            #expect(image.pixelSize == PixelSize(width: 32, height: 24))
            #expect(abs(grey(image) - 160) <= 3)
            // The URL's second: the first frame at or after 1.55 s (16), or its key frame (10).
            let exact = try await harness.get(harness.signedPath("vts:1.55/w:32", source: "/clip.mp4", ext: "png"))
            #expect(abs(grey(try exact.image()) - 128) <= 2)
            let key = try await harness.get(harness.signedPath("vts:1.55/vtk:1/w:32", source: "/clip.mp4", ext: "png"))
            #expect(abs(grey(try key.image()) - 80) <= 2)
            // Past the end: the last frame.
            let last = try await harness.get(harness.signedPath("video_thumbnail_second:99/w:32", source: "/clip.mp4",
                                                                ext: "png"))
            #expect(abs(grey(try last.image()) - 232) <= 2)
            let bad = try await harness.get(harness.signedPath("vts:-1/w:32", source: "/clip.mp4", ext: "png"))
            #expect(bad.status == 400)
        }
    }

    @Test func rotationMetadataTurnsTheFrame() async throws {
        let video = try await VideoSamples.rotatedPattern(90)
        try await ProxyHarness.with(try Self.configuration()) { harness in
            harness.serve("/turned.mov", video, contentType: "video/quicktime")
            let answer = try await harness.get(harness.signedPath("w:120", source: "/turned.mov", ext: "png"))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try answer.image().pixelSize == PixelSize(width: 120, height: 160))
        }
    }

    @Test func hostileVideosEndInA422() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        var scrambled = video
        // The container's header kept, every byte after the first 64 replaced.
        var generator = SystemRandomNumberGenerator()
        for index in 64..<scrambled.count { scrambled[index] = UInt8.random(in: 0...255, using: &generator) }
        let cases: [(String, Data)] = [
            ("/truncated.mp4", video.prefix(video.count / 3)),
            ("/scrambled.mp4", scrambled),
            ("/header-only.mkv", Data(VideoSamplesHeader.matroska)),
        ]
        try await ProxyHarness.with(try Self.configuration()) { harness in
            for (path, data) in cases { harness.serve(path, data, contentType: "video/mp4") }
            for (path, _) in cases {
                let answer = try await harness.get(harness.signedPath("w:32", source: path, ext: "png"))
                #expect(answer.status == 422, "\(path): \(answer.status) \(answer.text)")
            }
            // The service goes on.
            harness.serve("/clip.mp4", video, contentType: "video/mp4")
            let next = try await harness.get(harness.signedPath("w:32", source: "/clip.mp4", ext: "png"))
            #expect(next.status == 200, "\(next.text)")
        }
    }
}

/// A Matroska EBML header with nothing after it.
private enum VideoSamplesHeader {
    static let matroska: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01,
                                    0x42, 0xF2, 0x81, 0x04, 0x42, 0xF3, 0x81, 0x08, 0x42, 0x82, 0x88] + Array("matroska".utf8)
}
