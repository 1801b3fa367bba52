#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
import Foundation

/// One child process and this process's ends of its pipes, for a request and its reply (the PDF and video
/// children): the request written and the reply read in one poll loop on the calling thread, the child killed with
/// its process group when stopped. Writes to a child that died fail with EPIPE instead of ending this process.
package final class ChildExchange {
    /// Why an exchange stopped short.
    package enum Failure: Error {
        case pipes(errno: Int32)
        case start(SpawnFailure)
        case timedOut
        case cancelled
        /// The reader took no more: the child closed its output, or the reply is not one.
        case readerStopped
    }

    private let child: SpawnedChild
    private var input: Int32?
    private var output: Int32?

    private static let ignoresBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Starts `executable` with `arguments` (named `name`, as `ps` shows it) in its own process group, its standard
    /// error `stderr`, its standard input and output pipes made close-on-exec, so no other child holds them.
    package init(executable: String, name: String, arguments: [String], stderr: Int32) throws(Failure) {
        Self.ignoresBrokenPipes
        var inputPipe: [Int32] = [-1, -1], outputPipe: [Int32] = [-1, -1]
        guard webimage_pipe_cloexec(&inputPipe) == 0 else { throw .pipes(errno: errno) }
        guard webimage_pipe_cloexec(&outputPipe) == 0 else {
            let code = errno
            inputPipe.forEach { close($0) }
            throw .pipes(errno: code)
        }
        defer {
            close(inputPipe[0])
            close(outputPipe[1])
        }
        do {
            child = try SpawnedChild(executable, name: name, arguments, stdin: inputPipe[0], stdout: outputPipe[1],
                                     stderr: stderr, ownProcessGroup: true)
        } catch {
            close(inputPipe[1])
            close(outputPipe[0])
            throw .start(error)
        }
        input = inputPipe[1]
        output = outputPipe[0]
        FileDescriptorIO.setNonBlocking(inputPipe[1])
        FileDescriptorIO.setNonBlocking(outputPipe[0])
    }

    /// Sends `parts` while `read` takes what the child answers from the given descriptor (false: it takes no
    /// more), until `isComplete`; the deadline and `isCancelled` stop it.
    package func exchange(sending parts: [Data], deadline: ContinuousClock.Instant, isCancelled: () -> Bool,
                          isComplete: () -> Bool, read: (Int32) -> Bool) throws(Failure) {
        var sending = OutgoingBytes(parts: parts)
        guard let outputDescriptor = output else { return }
        while !isComplete() {
            if isCancelled() { throw .cancelled }
            if ContinuousClock.now >= deadline { throw .timedOut }
            var descriptors = [pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)]
            if let input, !sending.isDone { descriptors.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
            let waitMilliseconds = min(50, max(1, (deadline - ContinuousClock.now).milliseconds))
            guard poll(&descriptors, nfds_t(descriptors.count), Int32(waitMilliseconds)) >= 0 || errno == EINTR else {
                throw .pipes(errno: errno)
            }
            if descriptors.count > 1, descriptors[1].revents != 0, !sending.send(to: descriptors[1].fd) {
                closeInput()
            }
            if descriptors[0].revents != 0, !read(outputDescriptor) { throw .readerStopped }
        }
    }

    /// How the child ended, once it has; nil when the deadline passed or `isCancelled` first. A child that closed
    /// its output but goes on running is waited for no longer than that.
    package func termination(until deadline: ContinuousClock.Instant, isCancelled: () -> Bool) -> SpawnedChild.Termination? {
        while true {
            if let termination = child.poll() { return termination }
            if isCancelled() || ContinuousClock.now >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// Kills the child (and anything it started) unless it has ended, reaps it and closes this process's ends of
    /// its pipes.
    package func stop() {
        closeInput()
        child.stop()
        if let output { close(output) }
        output = nil
    }

    private func closeInput() {
        if let input { close(input) }
        input = nil
    }
}

/// The request's bytes still to write, part after part.
private struct OutgoingBytes {
    var parts: [Data]
    private var offset = 0

    init(parts: [Data]) {
        self.parts = parts.filter { !$0.isEmpty }
    }

    var isDone: Bool { parts.isEmpty }

    /// Writes what the pipe takes now; false when nothing more will be sent: all of it was, or the child
    /// stopped reading.
    mutating func send(to descriptor: Int32) -> Bool {
        while let part = parts.first {
            let result = part.withUnsafeBytes { bytes in
                FileDescriptorIO.writeSome(descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
            switch result {
            case .moved(let count):
                offset += count
                if offset == part.count {
                    parts.removeFirst()
                    offset = 0
                }
            case .wouldBlock:
                return true
            case .closed, .failed:
                parts.removeAll()
                return false
            }
        }
        return false
    }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    package var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
