#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Spawning
import WebImageCore

/// The child side of ``VideoChildProcess``: reads one request on standard input, bounds its own memory and CPU
/// time before reading the video, probes it or decodes the frame asked for in this process, and writes the
/// answer or the failure on standard output.
///
/// An executable that isolates videos calls it when started with its video arguments (`webimage video-frame`):
///
/// ```swift
/// if CommandLine.arguments.dropFirst() == ["video-frame"] { exit(VideoFrameChild.run()) }
/// ```
public enum VideoFrameChild {
    /// Handles one request; the exit status: 0 when a reply (an answer or a failure) was written, 1 when it could
    /// not be, 2 when the request was not one.
    public static func run() -> Int32 {
        guard let request = readRequest() else {
            _ = FileDescriptorIO.write(STDOUT_FILENO, VideoChildWire.failure("not a video request"))
            return 2
        }
        // Limits first: nothing the video says is read before they hold.
        ChildResourceLimits.apply(memoryBytes: request.0.memoryBytes, cpuSeconds: request.0.cpuSeconds)
        guard let video = FileDescriptorIO.read(STDIN_FILENO, count: request.length) else {
            _ = FileDescriptorIO.write(STDOUT_FILENO, VideoChildWire.failure("the video was cut short"))
            return 2
        }
        do {
            return try answer(request.0, video: video) ? 0 : 1
        } catch {
            return FileDescriptorIO.write(STDOUT_FILENO, VideoChildWire.failure("\(error)")) ? 0 : 1
        }
    }

    private static func readRequest() -> (VideoChildWire.Request, length: Int)? {
        let magic = VideoChildWire.magic
        guard let head = FileDescriptorIO.read(STDIN_FILENO, count: magic.count + 4), head.starts(with: magic) else { return nil }
        let length = Int(UInt32(littleEndianBytes: head.suffix(4)))
        guard length <= VideoChildWire.maxJSONBytes, let json = FileDescriptorIO.read(STDIN_FILENO, count: length),
              let request = try? JSONDecoder().decode(VideoChildWire.Request.self, from: json),
              let size = FileDescriptorIO.read(STDIN_FILENO, count: 8) else { return nil }
        return (request, Int(clamping: UInt64(littleEndianBytes: size)))
    }

    /// Writes the answer; false when standard output failed.
    private static func answer(_ request: VideoChildWire.Request, video: Data) throws -> Bool {
        switch request.kind {
        case .probe:
            let probe = try VideoThumbnailCoder.probeHere(video, limits: request.limits)
            return FileDescriptorIO.write(STDOUT_FILENO, try VideoChildWire.answer(probe))
        case .frame:
            let image = try VideoThumbnailCoder.decodeHere(video, limits: request.limits, options: request.decodeOptions)
            let pixels = image.pixels.converted(to: .rgba8)
            return try write(VideoChildWire.FrameAnswer(width: pixels.width, height: pixels.height,
                                                        orientation: image.orientation, isThumbnail: image.isThumbnail),
                             [pixels])
        case .frames:
            let schedule = request.schedule ?? VideoFrameSchedule(start: request.second, step: 0, count: 1)
            let frames = try VideoThumbnailCoder.framesHere(video, schedule: schedule, limits: request.limits,
                                                            options: request.decodeOptions)
            let size = frames.frames[0].size
            return try write(VideoChildWire.FrameAnswer(width: size.width, height: size.height,
                                                        orientation: frames.orientation, isThumbnail: true,
                                                        count: frames.frames.count), frames.frames)
        }
    }

    /// The answer, then the frames' length and their bytes; false when standard output failed.
    private static func write(_ answer: VideoChildWire.FrameAnswer, _ frames: [PixelBuffer]) throws -> Bool {
        var bytes = try VideoChildWire.answer(answer)
        bytes.append(le: UInt64(frames.reduce(0) { $0 + $1.bytes.count }))
        return FileDescriptorIO.write(STDOUT_FILENO, bytes)
            && frames.allSatisfy { frame in frame.bytes.withUnsafeBytes { FileDescriptorIO.write(STDOUT_FILENO, $0) } }
    }
}
