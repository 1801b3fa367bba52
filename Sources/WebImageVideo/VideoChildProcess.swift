#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Spawning
import WebImage

/// Where ``VideoThumbnailCoder`` probes and decodes when isolated: one child process per call, started from
/// `executable` with `arguments` (it must call ``VideoFrameChild/run()``), its memory and CPU bounded by the
/// kernel before it reads the video, killed with its process group at the time limit or when the work is
/// cancelled (``WorkCancellation``). The video reaches it through a pipe; it opens nothing itself.
public struct VideoChildProcess: Sendable, Hashable {
    /// The executable started for each call. Default: this one (`/proc/self/exe` on Linux).
    public var executable: URL
    /// The arguments that make ``executable`` a video child. Default `["video-frame"]`.
    public var arguments: [String]
    /// The memory the child may allocate besides the video and two frames (`RLIMIT_DATA`: the runtime, the
    /// demuxer, the decoder's reference frames). Default 256 MiB.
    public var memoryAllowance: Int
    /// The child's CPU time limit, in seconds (`RLIMIT_CPU`). Default 30.
    public var cpuSeconds: Int
    /// The most a call may take, the child killed then. Default 30 s.
    public var timeLimit: Duration

    public init(executable: URL = VideoChildProcess.runningExecutable, arguments: [String] = ["video-frame"],
                memoryAllowance: Int = 256 << 20, cpuSeconds: Int = 30, timeLimit: Duration = .seconds(30)) {
        self.executable = executable
        self.arguments = arguments
        self.memoryAllowance = memoryAllowance
        self.cpuSeconds = cpuSeconds
        self.timeLimit = timeLimit
    }

    /// The running executable: on Linux `/proc/self/exe`, the same build even when its file has been replaced
    /// since; elsewhere the main bundle's executable.
    public static var runningExecutable: URL { SpawnedChild.runningExecutable }

    func probe(_ data: Data, limits: VideoLimits) throws -> VideoProbe {
        let request = VideoChildWire.Request(kind: .probe, limits: limits, memoryBytes: memoryLimit(data, pixels: 0),
                                             cpuSeconds: cpuSeconds)
        let reply = try exchange(request, video: data, maxPixelBytes: 0)
        do {
            return try JSONDecoder().decode(VideoProbe.self, from: Data(reply.json))
        } catch {
            throw WebImageError.badImageData(.corrupt("the video child answered wrongly: \(error)"))
        }
    }

    func frame(_ data: Data, limits: VideoLimits, options: ImageDecodeOptions) throws -> Image {
        let format = try VideoThumbnailCoder.videoFormat(data)
        let (answer, frames) = try frames(.frame, data, limits: limits, options: options)
        let image = Image(frames: [ImageFrame(pixels: frames[0])], orientation: answer.orientation, format: format,
                          hasAlpha: false, isThumbnail: answer.isThumbnail)
        return image.with(frames: image.frames, scale: options.resolvedScale, orientation: answer.orientation,
                          isThumbnail: answer.isThumbnail, decodeOptions: options)
    }

    func frames(_ data: Data, schedule: VideoFrameSchedule, limits: VideoLimits,
                options: ImageDecodeOptions) throws -> VideoFrames {
        _ = try VideoThumbnailCoder.videoFormat(data)
        let (answer, frames) = try frames(.frames, data, schedule: schedule, limits: limits, options: options)
        return VideoFrames(frames: frames, orientation: answer.orientation)
    }

    /// The frames a `.frame` or `.frames` request gets: their pixels checked against the answer's size and count.
    private func frames(_ kind: VideoChildWire.Request.Kind, _ data: Data, schedule: VideoFrameSchedule? = nil,
                        limits: VideoLimits, options: ImageDecodeOptions) throws
        -> (VideoChildWire.FrameAnswer, [PixelBuffer]) {
        let request = VideoChildWire.Request(kind, limits: limits, memoryBytes: memoryLimit(data, pixels: options.maxPixelCount),
                                             cpuSeconds: cpuSeconds, options: options, schedule: schedule)
        let (pixelBytes, overflow) = options.maxPixelCount.multipliedReportingOverflow(by: 4)
        let reply = try exchange(request, video: data, maxPixelBytes: overflow ? .max : pixelBytes)
        guard let answer = try? JSONDecoder().decode(VideoChildWire.FrameAnswer.self, from: Data(reply.json)),
              answer.width > 0, answer.height > 0, answer.count > 0,
              answer.width * answer.height * 4 * answer.count == reply.pixels.count else {
            throw WebImageError.badImageData(.corrupt("the video child answered wrongly"))
        }
        let frameBytes = answer.width * answer.height * 4
        let frames = (0..<answer.count).map { index in
            PixelBuffer(width: answer.width, height: answer.height,
                        bytes: Array(reply.pixels[index * frameBytes ..< (index + 1) * frameBytes]))
        }
        return (answer, frames)
    }

    /// `RLIMIT_DATA`: the allowance, the video, and the frame twice over (decoded planes and the RGBA copy).
    private func memoryLimit(_ data: Data, pixels: Int) -> Int {
        let frame = min(pixels, 1 << 28).multipliedReportingOverflow(by: 8)
        return memoryAllowance + data.count + (frame.overflow ? 0 : frame.partialValue)
    }

    private func exchange(_ request: VideoChildWire.Request, video: Data,
                          maxPixelBytes: Int) throws -> VideoChildReply {
        let deadline = ContinuousClock.now + timeLimit
        let cancellation = WorkCancellation.current
        let isCancelled = { cancellation?.isCancelled == true }
        let exchange: ChildExchange
        do {
            exchange = try ChildExchange(executable: executable.path, name: executable.resolvingSymlinksInPath().path,
                                         arguments: arguments, stderr: LibraryLogs.standardErrorForChildren)
        } catch .pipes(let code) {
            throw failure("its pipes cannot be made: errno \(code)")
        } catch {
            throw failure("\(executable.path) cannot start: \(error)")
        }
        defer { exchange.stop() }
        var reply = VideoChildReplyReader(kind: request.kind, maxPixelBytes: maxPixelBytes)
        let header = Data(try VideoChildWire.request(request, length: video.count))
        do {
            try exchange.exchange(sending: [header, video],
                                  deadline: deadline, isCancelled: isCancelled, isComplete: { reply.isComplete },
                                  read: { reply.read(from: $0) })
        } catch .readerStopped {
            if let protocolError = reply.protocolError { throw failure("answered wrongly: \(protocolError)") }
            throw ended(exchange.termination(until: deadline, isCancelled: isCancelled))
        } catch .cancelled {
            throw WebImageError.cancelled
        } catch .timedOut {
            throw timedOut()
        } catch .pipes(let code) {
            throw failure("its pipes failed: errno \(code)")
        } catch {
            throw failure("failed: \(error)")
        }
        if let message = reply.failure { throw WebImageError.badImageData(.corrupt(message)) }
        return reply.result
    }

    private func failure(_ why: String) -> WebImageError {
        .badImageData(.corrupt("the video child \(why)"))
    }

    private func timedOut() -> WebImageError {
        .badImageData(.corrupt("the video was not read within \(timeLimit)"))
    }

    /// Why a child that closed its output without a whole reply did: its limits, or a crash; nil: its time ran out.
    private func ended(_ termination: SpawnedChild.Termination?) -> WebImageError {
        switch termination {
        case .signaled(SIGXCPU)?, .signaled(SIGKILL)?:
            return failure("used up its \(cpuSeconds) s of CPU")
        case .signaled(let signal)?:
            return failure("could not read the video within its memory (\(memoryAllowance >> 20) MiB besides "
                + "the video and the frame): it ended by signal \(signal)")
        case .exited(let status)?:
            return failure("exited with status \(status) without an answer")
        case nil:
            return timedOut()
        }
    }
}
