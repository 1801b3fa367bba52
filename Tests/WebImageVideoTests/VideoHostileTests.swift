import Foundation
import Testing
import TestSupport
import WebImage
import WebImageVideo

/// Videos that are damaged, oversized, endless or refer to other files end in typed errors within the limits, in
/// this process and in the bounded child.
@Suite("Hostile videos")
struct VideoHostileTests {
    private func frameOptions(second: Double = 1, maxPixels: Int = 50_000_000) -> ImageDecodeOptions {
        var options = ImageDecodeOptions(maxPixelCount: maxPixels)
        options.coderOptions[VideoThumbnailSecond.self] = second
        return options
    }

    /// The error's text, which must say what went wrong; nil when nothing was thrown.
    private func failure<Value>(_ body: () throws -> Value) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as WebImageError {
            return error.description
        } catch {
            return "untyped: \(error)"
        }
    }

    @Test("a frame over the pixel limit is refused before its decoder opens")
    func pixelLimit() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        let message = failure { try VideoThumbnailCoder().decode(video, options: frameOptions(maxPixels: 64 * 48 - 1)) }
        #expect(message?.contains("64x48") == true, "\(message ?? "none")")
    }

    @Test("a stream that never reaches the time asked for stops at the packet bound")
    func packetBound() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        let coder = VideoThumbnailCoder(limits: VideoLimits(maxPackets: 5))
        let message = failure { try coder.decode(video, options: frameOptions(second: 2.5)) }
        #expect(message == "corrupt image data: no frame within 5 packets of the video", "\(message ?? "none")")
    }

    @Test("a video claiming 16000×16000 frames is refused before a frame of that size is allocated")
    func hugeDimensions() async throws {
        let video = try TestCorpus.data("video/huge-dimensions.avi")
        // Probing decodes a frame to learn the size: FFmpeg's own pixel limit refuses it, and the stream has none.
        let refusal = "corrupt image data: the video stream's frame size cannot be read (over the pixel limit of "
            + "100000000, or damaged)"
        #expect(failure { try VideoThumbnailCoder().header(video) } == refusal)
        #expect(failure { try VideoThumbnailCoder().decode(video, options: frameOptions(second: 0)) } == refusal)
        // Allowed that many in the probe, the size is read, and the decode's own limit refuses it.
        let probing = VideoThumbnailCoder(limits: VideoLimits(maxPixels: 300_000_000))
        #expect(try probing.header(video).pixelSize == PixelSize(width: 16000, height: 16000))
        #expect(failure { try probing.decode(video, options: frameOptions(second: 0)) }
                    == "too many pixels: 16000x16000 is over the limit of 50000000 pixels per frame")
        // Allowed that many pixels, the child still ends in a typed error within 64 MiB besides the frame's share.
        let executable = try BuiltExecutable.url("webimage")
        let child = VideoThumbnailCoder(limits: VideoLimits(maxPixels: .max),
                                        childProcess: VideoChildProcess(executable: executable, memoryAllowance: 64 << 20))
        let isolated = failure { try child.decode(video, options: frameOptions(second: 0, maxPixels: 300_000_000)) }
        #expect(isolated?.hasPrefix("corrupt image data") == true, "\(isolated ?? "none")")
    }

    @Test("absurd frame rates: one frame every 100,000 s, and a million frames a second",
          arguments: [("sparse.mp4", "1/100000", "3000000"), ("dense.mp4", "1000000", "0.00003")])
    func frameRates(_ name: String, _ rate: String, _ duration: String) async throws {
        // No B-frames: the MP4 muxer cannot store their reordering at one frame per 100,000 s.
        let video = try await VideoSamples.make(name, ["-f", "lavfi", "-i", "color=c=blue:s=32x24:r=\(rate):d=\(duration)",
                                                       "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p"])
        let coder = VideoThumbnailCoder()
        for second in [0, 1, 1e6] {
            let image = try coder.decode(video, options: frameOptions(second: second))
            #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        }
        let spread = try coder.frames(video, schedule: VideoFrameSchedule(start: 0, step: -1, count: 6),
                                      options: ImageDecodeOptions())
        #expect((1...6).contains(spread.frames.count))
    }

    @Test("damaged, truncated and empty videos are typed errors", arguments: ["truncated", "scrambled", "header"])
    func damaged(_ kind: String) async throws {
        let video = try await VideoSamples.greyRamp("mkv")
        var data = video
        switch kind {
        case "truncated": data = video.prefix(200)
        case "scrambled":
            var generator = SystemRandomNumberGenerator()
            for index in 100..<data.count where index % 7 == 0 { data[index] = UInt8.random(in: 0...255, using: &generator) }
        default: data = video.prefix(4)
        }
        let message = failure { try VideoThumbnailCoder().decode(data, options: frameOptions()) }
        // A scrambled stream may still give a (damaged) frame, as players show one; anything else is a typed error.
        if kind != "scrambled" || message != nil {
            #expect(message?.hasPrefix("corrupt image data") == true || message?.hasPrefix("unsupported") == true
                        || message?.hasPrefix("truncated") == true || message?.hasPrefix("empty") == true,
                    "\(kind): \(message ?? "none")")
        }
    }

    @Test("a playlist or concat list naming a local file is no video; a MOV's external references are never opened")
    func references() async throws {
        let playlist = Data("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nfile:///etc/passwd\n".utf8)
        let concat = Data("ffconcat version 1.0\nfile '/etc/passwd'\n".utf8)
        for data in [playlist, concat] {
            #expect(!VideoThumbnailCoder().canDecode(data))
            #expect(failure { try VideoThumbnailCoder().decode(data, options: frameOptions()) }?.hasPrefix("unsupported") == true)
        }
        // An MP4 whose data reference names another file (a `url ` entry without the self-contained flag, and an
        // `alis` one): its samples are read from this file or not at all.
        let video = try await VideoSamples.greyRamp("mp4")
        let external = Self.pointingDataReferenceElsewhere(video)
        #expect(external != video)
        let message = failure { try VideoThumbnailCoder().decode(external, options: frameOptions()) }
        #expect(message == nil || message!.hasPrefix("corrupt image data"), "\(message ?? "none")")
    }

    /// `video` with its `dref` box's `url ` entry's flags cleared (no longer self-contained).
    private static func pointingDataReferenceElsewhere(_ video: Data) -> Data {
        var bytes = [UInt8](video)
        let pattern = Array("url ".utf8)
        if let index = (0..<(bytes.count - 8)).first(where: { Array(bytes[$0..<$0 + 4]) == pattern }) {
            bytes[index + 7] = 0
        }
        return Data(bytes)
    }

    @Test("the child is killed at its time limit, and a child that exhausts its memory is a typed error")
    func childLimits() async throws {
        let executable = try BuiltExecutable.url("webimage")
        let video = try await VideoSamples.make("big.mp4", ["-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=25:d=4",
                                                            "-c:v", "libx264", "-preset", "ultrafast", "-g", "100",
                                                            "-pix_fmt", "yuv420p"])
        // 2 ms cannot read a 1080p frame: the child is killed and the call returns at once.
        let hurried = VideoThumbnailCoder(childProcess: VideoChildProcess(executable: executable, timeLimit: .milliseconds(2)))
        let started = ContinuousClock.now
        let late = failure { try hurried.decode(video, options: frameOptions(second: 3.9)) }
        #expect(late?.contains("was not read within") == true, "\(late ?? "none")")
        #expect(ContinuousClock.now - started < .seconds(5))
        // 16 MiB besides the video and the frame's allowance: the child's allocations fail.
        let starved = VideoThumbnailCoder(childProcess: VideoChildProcess(executable: executable, memoryAllowance: 0))
        let message = failure { try starved.decode(video, options: frameOptions(second: 1, maxPixels: 1)) }
        #expect(message?.hasPrefix("corrupt image data") == true || message?.hasPrefix("too many pixels") == true,
                "\(message ?? "none")")
        // The same child with room reads the frame, the same pixels as in this process.
        let roomy = VideoThumbnailCoder(childProcess: VideoChildProcess(executable: executable))
        let isolated = try roomy.decode(video, options: frameOptions(second: 2))
        let here = try VideoThumbnailCoder().decode(video, options: frameOptions(second: 2))
        #expect(isolated.pixels == here.pixels)
        #expect(try roomy.probe(video) == (try VideoThumbnailCoder().probe(video)))
    }
}
