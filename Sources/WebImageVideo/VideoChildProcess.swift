#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
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

    /// Writes to a child that died fail with EPIPE instead of ending this process.
    private static let ignoresBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

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
        Self.ignoresBrokenPipes
        let deadline = ContinuousClock.now + timeLimit
        let cancellation = WorkCancellation.current
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard webimage_pipe_cloexec(&input) == 0 else { throw failure("its pipes cannot be made: errno \(errno)") }
        guard webimage_pipe_cloexec(&output) == 0 else {
            input.forEach { close($0) }
            throw failure("its pipes cannot be made: errno \(errno)")
        }
        let child: SpawnedChild
        do {
            child = try SpawnedChild(executable.path, name: executable.resolvingSymlinksInPath().path, arguments,
                                     stdin: input[0], stdout: output[1], stderr: LibraryLogs.standardErrorForChildren,
                                     ownProcessGroup: true)
        } catch {
            [input[0], input[1], output[0], output[1]].forEach { close($0) }
            throw failure("\(executable.path) cannot start: \(error)")
        }
        close(input[0])
        close(output[1])
        var writeEnd: Int32? = input[1]
        defer {
            if let writeEnd { close(writeEnd) }
            close(output[0])
            child.stop()
        }
        FileDescriptorIO.setNonBlocking(input[1])
        FileDescriptorIO.setNonBlocking(output[0])
        var outgoing = try VideoChildWire.request(request, length: video.count)
        outgoing += video
        var sent = 0
        var reply = VideoChildReplyReader(kind: request.kind, maxPixelBytes: maxPixelBytes)
        while !reply.isComplete {
            if cancellation?.isCancelled == true { throw WebImageError.cancelled }
            if ContinuousClock.now >= deadline { throw timedOut() }
            var descriptors = [pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)]
            if let writeEnd { descriptors.append(pollfd(fd: writeEnd, events: Int16(POLLOUT), revents: 0)) }
            guard poll(&descriptors, nfds_t(descriptors.count), 50) >= 0 || errno == EINTR else {
                throw failure("its pipes failed: errno \(errno)")
            }
            if descriptors.count > 1, descriptors[1].revents != 0, let end = writeEnd {
                let moved = outgoing.withUnsafeBytes { FileDescriptorIO.writeSome(end, UnsafeRawBufferPointer(rebasing: $0[sent...])) }
                switch moved {
                case .moved(let count): sent += count
                case .wouldBlock: break
                case .closed, .failed: sent = outgoing.count
                }
                if sent == outgoing.count {
                    close(end)
                    writeEnd = nil
                    outgoing = []
                }
            }
            if descriptors[0].revents != 0, !reply.read(from: output[0]) {
                throw reply.protocolError.map { failure("it answered wrongly: \($0)") } ?? ended(child, deadline: deadline)
            }
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

    /// Why a child that closed its output without a whole reply did: its limits, or a crash.
    private func ended(_ child: SpawnedChild, deadline: ContinuousClock.Instant) -> WebImageError {
        while ContinuousClock.now < deadline {
            switch child.poll() {
            case .signaled(SIGXCPU)?, .signaled(SIGKILL)?:
                return failure("used up its \(cpuSeconds) s of CPU")
            case .signaled(let signal)?:
                return failure("could not read the video within its memory (\(memoryAllowance >> 20) MiB besides "
                    + "the video and the frame): it ended by signal \(signal)")
            case .exited(let status)?:
                return failure("exited with status \(status) without an answer")
            case nil:
                usleep(2_000)
            }
        }
        return timedOut()
    }
}
