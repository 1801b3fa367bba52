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

    /// The red of the pixel at (x, y) and its alpha.
    private func pixel(_ image: Image, _ x: Int, _ y: Int) -> (red: Int, alpha: Int) {
        let pixels = image.pixels.converted(to: .rgba8)
        let index = (y * pixels.width + x) * 4
        return (Int(pixels.bytes[index]), Int(pixels.bytes[index + 3]))
    }

    @Test func spriteSheetsLayTheFramesOutInRows() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        try await ProxyHarness.with(try Self.configuration()) { harness in
            harness.serve("/clip.mp4", video, contentType: "video/mp4")
            // From the operator's 1 s, every 0.5 s: 1, 1.5, 2, 2.5 (frames 10, 15, 20, 25); 3 and 3.5 are past the end.
            let sheet = try await harness.get(harness.signedPath("vtt:0.5:3:2:32:24", source: "/clip.mp4", ext: "png"))
            #expect(sheet.status == 200, "\(sheet.text)")
            let image = try sheet.image()
            #expect(image.pixelSize == PixelSize(width: 96, height: 48))
            let centres = [(16, 12), (48, 12), (80, 12), (16, 36), (48, 36), (80, 36)].map { pixel(image, $0.0, $0.1) }
            for (centre, grey) in zip(centres.prefix(4), [80, 120, 160, 200]) {
                #expect(abs(centre.red - grey) <= 3 && centre.alpha == 255, "\(centres)")
            }
            #expect(centres[4].alpha == 0 && centres[5].alpha == 0)
            // Spread over the whole video (3 s / 3 tiles) from 0.
            let spread = try await harness.get(harness.signedPath("vts:0/vtt:-1:3:1:32:24", source: "/clip.mp4", ext: "png"))
            let row = try spread.image()
            #expect(row.pixelSize == PixelSize(width: 96, height: 24))
            #expect([16, 48, 80].map { abs(pixel(row, $0, 12).red - [16: 0, 48: 80, 80: 160][$0]!) <= 3 } == [true, true, true])
            // 2 × 3 tiles a second apart from 0: three are used (0, 1, 2 s); trimmed, the sheet keeps two rows.
            let untrimmed = try await harness.get(harness.signedPath("vts:0/vtt:1:2:3:32:24", source: "/clip.mp4", ext: "png"))
            #expect(try untrimmed.image().pixelSize == PixelSize(width: 64, height: 72))
            let trimmed = try await harness.get(harness.signedPath("vts:0/vtt:1:2:3:32:24:0:1", source: "/clip.mp4", ext: "png"))
            #expect(try trimmed.image().pixelSize == PixelSize(width: 64, height: 48))
            // Fitted into 40×40 and extended on black; filled into 20×20 around the centre.
            let extended = try await harness.get(harness.signedPath("vtt:1:1:1:40:40:1", source: "/clip.mp4", ext: "png"))
            let cell = try extended.image()
            #expect(cell.pixelSize == PixelSize(width: 40, height: 40))
            #expect(pixel(cell, 20, 0) == (0, 255) && abs(pixel(cell, 20, 20).red - 80) <= 3)
            let filled = try await harness.get(harness.signedPath("vtt:1:1:1:20:20:0:0:1", source: "/clip.mp4", ext: "png"))
            #expect(try filled.image().pixelSize == PixelSize(width: 20, height: 20))
            let refused = try await harness.get(harness.signedPath("vtt:1:101:1:20:20", source: "/clip.mp4", ext: "png"))
            #expect(refused.status == 400)
        }
    }

    @Test func animationsTakeAFrameEveryStep() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        try await ProxyHarness.with(try Self.configuration()) { harness in
            harness.serve("/clip.mp4", video, contentType: "video/mp4")
            let answer = try await harness.get(harness.signedPath("vts:0/vta:1:100:4:32:24", source: "/clip.mp4",
                                                                  ext: "gif"))
            #expect(answer.status == 200, "\(answer.text)")
            let animation = try answer.image()
            // 0, 1, 2 s, then the last frame again (3 s is past the end); 100 ms each.
            #expect(animation.frameCount == 4 && animation.pixelSize == PixelSize(width: 32, height: 24))
            #expect(animation.frameDurations == [0.1, 0.1, 0.1, 0.1])
            let greys = animation.frames.map { Int($0.pixels.converted(to: .rgba8).bytes[(12 * 32 + 16) * 4]) }
            #expect(zip(greys, [0, 80, 160, 160]).allSatisfy { abs($0 - $1) <= 4 }, "\(greys)")
            let trimmed = try await harness.get(harness.signedPath("vts:0/vta:1:100:4:32:24:0:1", source: "/clip.mp4",
                                                                   ext: "gif"))
            #expect(try trimmed.image().frameCount == 3)
            // A still result: the first frame.
            let still = try await harness.get(harness.signedPath("vts:0/vta:1:100:4:32:24", source: "/clip.mp4",
                                                                 ext: "png"))
            #expect(try still.image().frameCount == 1)
        }
    }

    @Test func infoDescribesTheContainerAndItsStreams() async throws {
        let video = try await VideoSamples.make("ramp-sound.mp4", [
            "-f", "lavfi", "-i", "color=s=64x48:r=10:d=3,format=rgb24,geq=r='8*N':g='8*N':b='8*N'",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-ac", "1", "-ar", "44100", "-metadata", "title=Ramp", "-metadata:s:a", "language=eng"])
        try await ProxyHarness.with(try Self.configuration()) { harness in
            harness.serve("/clip.mp4", video, contentType: "video/mp4")
            let answer = try await harness.get("/info" + harness.signedPath("vts:2/avg:1/chs:md5", source: "/clip.mp4"))
            #expect(answer.status == 200, "\(answer.text)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
            #expect(json["format"] as? String == "mov,mp4,m4a,3gp,3g2,mj2")
            #expect(json["mime_type"] as? String == "video/mp4")
            #expect(json["width"] as? Int == 64 && json["height"] as? Int == 48 && json["orientation"] as? Int == 1)
            #expect(json["size"] as? Int == video.count)
            let meta = try #require(json["video_meta"] as? [String: String])
            #expect(meta["title"] == "Ramp" && meta["major_brand"] == "isom")
            let streams = try #require(json["video_streams"] as? [[String: Any]])
            #expect(streams.map { $0["type"] as? String } == ["video", "audio"])
            #expect(streams[0]["codec"] as? String == "h264" && streams[0]["fps"] as? Double == 10)
            #expect(streams[1]["codec"] as? String == "aac" && streams[1]["frequency"] as? Int == 44100)
            #expect(streams[1]["layout"] as? String == "mono" && streams[1]["language"] as? String == "eng")
            // The frame at 2 s (20: grey 160); no digest of a video, as imgproxy.
            let average = try #require(json["average"] as? [String: Int])
            #expect(abs((average["R"] ?? 0) - 160) <= 2)
            #expect(json["hashsums"] == nil)
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
