import Foundation
import Testing
import TestSupport
import WebImage
import WebImageVideo

@Suite("VideoThumbnailCoder: frames of videos made by ffmpeg")
struct VideoThumbnailCoderTests {
    let coder = VideoThumbnailCoder()

    /// The grey level of a frame (its centre pixel's red), the frame number times 8 give or take the codec's rounding.
    private func grey(_ image: Image) -> Int {
        let pixels = image.pixels
        return Int(pixels.bytes[(pixels.height / 2 * pixels.width + pixels.width / 2) * 4])
    }

    private func options(second: Double, keyframes: Bool = false) -> ImageDecodeOptions {
        var options = ImageDecodeOptions()
        options.coderOptions[VideoThumbnailSecond.self] = second
        options.coderOptions[VideoThumbnailKeyframes.self] = keyframes
        return options
    }

    @Test("each container sniffs as its format and gives the header of its video stream",
          arguments: [("mp4", ImageFormat.mp4), ("mov", .mov), ("mkv", .mkv), ("webm", .webm), ("avi", .avi)])
    func containers(_ container: String, _ format: ImageFormat) async throws {
        let video = try await VideoSamples.greyRamp(container)
        #expect(ImageFormat(sniffing: video) == format)
        #expect(coder.canDecode(video))
        let header = try coder.header(video)
        #expect(header.format == format)
        #expect(header.pixelSize == PixelSize(width: 64, height: 48))
        #expect(header.orientation == .up)
        #expect(header.frameCount == 1)
        let probe = try coder.probe(video)
        #expect(abs((probe.duration ?? 0) - 3) < 0.15)
        #expect(probe.streams.map(\.type) == ["video"])
        #expect(probe.streams.first?.codec == (container == "webm" ? "vp9" : "h264"))
        // The exact frame at 1.55 s: the first at or after it, frame 16.
        let image = try coder.decode(video, options: options(second: 1.55))
        #expect(image.format == format)
        #expect(abs(grey(image) - 128) <= 2, "grey \(grey(image))")
    }

    @Test("the frame is ffmpeg's own at that time, byte for byte")
    func sameAsFFmpeg() async throws {
        let video = try await VideoSamples.pattern()
        for second in [0.0, 0.52, 1.0] {
            let ours = try coder.decode(video, options: options(second: second)).pixels.bytes
            let theirs = try await VideoSamples.ffmpegFrame(video, second: second)
            #expect(ours == theirs, "second \(second)")
        }
    }

    @Test("keyframes take the key frame at or before the second; a second past the end gives the last frame")
    func keyframesAndEnd() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        #expect(abs(grey(try coder.decode(video, options: options(second: 1.55, keyframes: true))) - 80) <= 2)
        #expect(abs(grey(try coder.decode(video, options: options(second: 0))) - 0) <= 2)
        #expect(abs(grey(try coder.decode(video, options: options(second: 100))) - 232) <= 2)
    }

    @Test("rotation metadata is the image's orientation; applied, the frame turns as ffmpeg's autorotation turns it",
          arguments: [(90, ImageOrientation.left), (180, .down), (270, .right)])
    func rotation(_ degrees: Int, _ orientation: ImageOrientation) async throws {
        // ffmpeg 5.1 writes the `rotate` tag of a stream copy as that many degrees counter-clockwise.
        let video = try await VideoSamples.rotatedPattern(degrees)
        let header = try coder.header(video)
        #expect(header.orientation == orientation)
        var upright = options(second: 1)
        upright.applyOrientation = true
        let image = try coder.decode(video, options: upright)
        #expect(image.pixelSize == header.displayedSize)
        // ffmpeg turns the YUV planes before converting, so chroma edges differ a little; a wrong turn differs
        // everywhere (a mean of tens).
        let theirs = try await VideoSamples.ffmpegFrame(video, second: 1)
        let mean = Double(zip(image.pixels.bytes, theirs).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(theirs.count)
        #expect(image.pixels.bytes.count == theirs.count)
        #expect(mean < 1.5, "mean difference \(mean)")
    }

    @Test("frames on a schedule, at one size; auto key frames once the step reaches the key frame interval")
    func schedule() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        var options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 32, height: 24), preserveAspectRatio: false)
        func greys(_ schedule: VideoFrameSchedule) throws -> [Int] {
            try coder.frames(video, schedule: schedule, options: options).frames.map {
                #expect($0.size == PixelSize(width: 32, height: 24))
                return Int($0.bytes[(12 * 32 + 16) * 4])
            }
        }
        // Frames 5, 15, 25; with key frames (every 10 frames) 0, 10, 20.
        let exact = try greys(VideoFrameSchedule(start: 0.5, step: 1, count: 3))
        #expect(zip(exact, [40, 120, 200]).allSatisfy { abs($0 - $1) <= 2 }, "\(exact)")
        let auto = try greys(VideoFrameSchedule(start: 0.5, step: 1, count: 3, autoKeyframes: true))
        #expect(zip(auto, [0, 80, 160]).allSatisfy { abs($0 - $1) <= 2 }, "\(auto)")
        // A step under the interval stays exact; past the end the schedule stops (3 s: 0.5, 1.0 … 2.5).
        let short = try greys(VideoFrameSchedule(start: 0.5, step: 0.5, count: 8, autoKeyframes: true))
        #expect(zip(short, [40, 80, 120, 160, 200]).allSatisfy { abs($0 - $1) <= 2 } && short.count == 5, "\(short)")
        // Spread over the video: 3 s / 3.
        let spread = try greys(VideoFrameSchedule(start: 0, step: -1, count: 3))
        #expect(zip(spread, [0, 80, 160]).allSatisfy { abs($0 - $1) <= 2 }, "\(spread)")
        options.maxPixelCount = 32 * 24 * 2
        #expect(throws: WebImageError.self) { try greys(VideoFrameSchedule(start: 0, step: 1, count: 3)) }
    }

    @Test("thumbnails are made as for any format")
    func thumbnail() async throws {
        let video = try await VideoSamples.greyRamp("mp4")
        var thumbnail = options(second: 2)
        thumbnail.thumbnailPixelSize = PixelSize(width: 32, height: 32)
        let image = try coder.decode(video, options: thumbnail)
        #expect(image.pixelSize == PixelSize(width: 32, height: 24))
        #expect(image.isThumbnail)
        #expect(abs(grey(image) - 160) <= 2)
    }
}
