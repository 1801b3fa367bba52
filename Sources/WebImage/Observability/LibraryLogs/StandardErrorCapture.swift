#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
import Dispatch
import Foundation

/// Descriptor 2 replaced by a pipe whose lines a thread of its own hands to `deliver`, so that what C libraries
/// print on standard error with no hook to stop them (libjxl's failure traces, dav1d's messages inside libavif,
/// libjpeg's warnings inside poppler) becomes log records instead of raw lines in the log stream. The process's
/// own lines go to ``original``, the stream descriptor 2 was (``StandardErrorOutput``).
///
/// A writer killed mid-line (a child given this descriptor) leaves a partial line that the next write completes:
/// writes of up to `PIPE_BUF` bytes are atomic, so that takes a line over 4 KiB. At a crash (a fatal signal) the
/// original stream is put back first, with the last 4 KiB captured and what the pipe still holds, so the crash
/// report and the message before it are not lost (`webimage_crash_restores_stderr`).
final class StandardErrorCapture: Sendable {
    /// The stream descriptor 2 was, duplicated (close-on-exec), until ``stop(waitingUpTo:)``.
    private let original: Int32
    private let readEnd: Int32
    private let drained = DispatchSemaphore(value: 0)

    struct Failure: Error, CustomStringConvertible {
        let step: String
        let code: Int32
        var description: String { "standard error cannot be captured: \(step) failed: \(String(cString: strerror(code)))" }
    }

    /// Starts capturing; each line (cut at `maxLineBytes`) goes to `deliver` on the capture's thread.
    init(maxLineBytes: Int, deliver: @escaping @Sendable (String) -> Void) throws(Failure) {
        fflush(nil)
        original = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        guard original >= 0 else { throw Failure(step: "dup", code: errno) }
        var ends: [Int32] = [-1, -1]
        guard webimage_pipe_cloexec(&ends) == 0 else {
            let code = errno
            close(original)
            throw Failure(step: "pipe", code: code)
        }
        // The process's own lines go to the original stream from now on, none of them into the pipe.
        StandardErrorOutput.redirect(to: original)
        // Non-blocking, so that the crash handler's reads never wait; the thread polls.
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        guard dup2(ends[1], STDERR_FILENO) >= 0 else {
            let code = errno
            StandardErrorOutput.redirect(to: STDERR_FILENO)
            [original, ends[0], ends[1]].forEach { close($0) }
            throw Failure(step: "dup2", code: code)
        }
        close(ends[1])
        readEnd = ends[0]
        _ = webimage_crash_restores_stderr(original, readEnd)
        let thread = Thread { [readEnd, drained] in
            Self.readLines(readEnd, maxLineBytes: maxLineBytes, deliver: deliver)
            close(readEnd)
            drained.signal()
        }
        thread.name = "webimage-stderr"
        thread.start()
    }

    /// Puts the original stream back as descriptor 2 and waits up to `timeout` for the lines already written to
    /// be delivered (a child still holding the pipe keeps it open: the wait then ends at `timeout`). Once only.
    func stop(waitingUpTo timeout: Duration) {
        fflush(nil)
        webimage_crash_keeps_stderr()
        dup2(original, STDERR_FILENO)
        StandardErrorOutput.redirect(to: STDERR_FILENO)
        close(original)
        let (seconds, attoseconds) = timeout.components
        _ = drained.wait(timeout: .now() + .milliseconds(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)))
    }

    /// Reads lines until every write end is closed.
    private static func readLines(_ descriptor: Int32, maxLineBytes: Int, deliver: (String) -> Void) {
        // One byte over the limit, so the recorder sees that a line was cut.
        var lines = LineSplitter(maxBytes: maxLineBytes + 1)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, -1) >= 0 || errno == EINTR else { break }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.withUnsafeBytes { webimage_crash_remember($0.baseAddress, count) }
                lines.append(buffer[..<count], line: deliver)
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                break
            }
        }
        lines.finish(line: deliver)
    }
}
