#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystemShim
import Foundation
import Spawning
import WebImage

/// One PDF child and the service's ends of its pipes: the request written and the reply read in one poll
/// loop on the worker's thread, which kills the child at the deadline or a cancellation.
final class PDFChildProcess {
    private let child: SpawnedChild
    private var input: Int32?
    private var output: Int32?
    private let rendering: ImageProxyConfiguration.PDFRendering

    init(_ rendering: ImageProxyConfiguration.PDFRendering) throws(ProxyError) {
        self.rendering = rendering
        // Close-on-exec, so that no other child started meanwhile holds them; the child's own ends are its
        // standard input and output.
        var inputPipe: [Int32] = [-1, -1], outputPipe: [Int32] = [-1, -1]
        guard webimage_pipe_cloexec(&inputPipe) == 0 else {
            throw .unavailable("the PDF renderer's pipes cannot be made: errno \(errno)")
        }
        guard webimage_pipe_cloexec(&outputPipe) == 0 else {
            inputPipe.forEach { close($0) }
            throw .unavailable("the PDF renderer's pipes cannot be made: errno \(errno)")
        }
        defer {
            close(inputPipe[0])
            close(outputPipe[1])
        }
        do {
            // Named by the file `/proc/self/exe` stands for, as `ps` would show the service itself. Its standard
            // error (poppler's warnings through GLib's default writer, libjpeg's) is the service's while that is
            // captured, so its lines are logged as a library's; never the raw stream.
            child = try SpawnedChild(rendering.executable.path, name: rendering.executable.resolvingSymlinksInPath().path,
                                     rendering.arguments, stdin: inputPipe[0], stdout: outputPipe[1],
                                     stderr: LibraryLogs.standardErrorForChildren, ownProcessGroup: true)
        } catch {
            close(inputPipe[1])
            close(outputPipe[0])
            throw .unavailable("the PDF renderer \(rendering.executable.path) cannot start: \(error)")
        }
        input = inputPipe[1]
        output = outputPipe[0]
        FileDescriptorIO.setNonBlocking(inputPipe[1])
        FileDescriptorIO.setNonBlocking(outputPipe[0])
    }

    /// Sends `request` and `document`, then reads the reply's pixels into `pixels` (exactly the request's
    /// size); a failure reply, a child that ends or misbehaves, the deadline and a cancellation throw.
    func exchange(_ request: PDFPageWire.Request, document: Data, into pixels: UnsafeMutableRawBufferPointer,
                  deadline: ContinuousClock.Instant, cancellation: WorkCancellation?) throws(ProxyError) {
        var sending = OutgoingBytes(parts: [Data(request.header), document])
        var reply = PDFReplyReader(expected: request.size)
        guard let outputDescriptor = output else { return }
        while !reply.isComplete {
            if Self.isOver(deadline, cancellation) { throw .processingTimeout }
            var descriptors = [pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)]
            if let input, !sending.isDone { descriptors.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
            let waitMilliseconds = min(50, max(1, (deadline - ContinuousClock.now).milliseconds))
            guard poll(&descriptors, nfds_t(descriptors.count), Int32(waitMilliseconds)) >= 0 || errno == EINTR else {
                throw .unavailable("the PDF renderer's pipes failed: errno \(errno)")
            }
            if descriptors.count > 1, descriptors[1].revents != 0, !sending.send(to: descriptors[1].fd) {
                closeInput()
            }
            if descriptors[0].revents != 0, !reply.read(from: outputDescriptor, into: pixels) {
                throw ended(reply, deadline: deadline, cancellation: cancellation)
            }
        }
        if let failure = reply.failure { throw .unprocessable(failure) }
    }

    /// Whether the page's time is up: its job was cancelled or the deadline passed.
    private static func isOver(_ deadline: ContinuousClock.Instant, _ cancellation: WorkCancellation?) -> Bool {
        cancellation?.isCancelled == true || ContinuousClock.now >= deadline
    }

    /// Kills the child (and anything it started) unless it has ended, reaps it and closes the service's ends of
    /// its pipes.
    func stop() {
        closeInput()
        child.stop()
        if let output { close(output) }
        output = nil
    }

    private func closeInput() {
        if let input { close(input) }
        input = nil
    }

    /// Why a child that stopped answering did: its limits, a crash, or a reply that is not one. A child that
    /// closed its output but goes on running is waited for no longer than the page could have taken.
    private func ended(_ reply: PDFReplyReader, deadline: ContinuousClock.Instant,
                       cancellation: WorkCancellation?) -> ProxyError {
        if let protocolError = reply.protocolError {
            return .unavailable("the PDF renderer \(rendering.executable.path) answered wrongly: \(protocolError)")
        }
        while true {
            if let termination = child.poll() { return failure(after: termination) }
            if Self.isOver(deadline, cancellation) { return .processingTimeout }
            usleep(2_000)
        }
    }

    /// The error of a child that ended without a whole reply.
    private func failure(after termination: SpawnedChild.Termination) -> ProxyError {
        switch termination {
        case .signaled(SIGXCPU):
            return .unprocessable("the PDF page was not drawn within the renderer's \(rendering.cpuSeconds) s of CPU")
        case .signaled(let signal):
            return .unprocessable("the PDF page could not be drawn within the renderer's memory "
                + "(\(rendering.memoryAllowance >> 20) MiB besides the document and the page): it ended by signal \(signal)")
        case .exited(let status):
            return .unavailable("the PDF renderer \(rendering.executable.path) exited with status \(status) without an answer")
        }
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
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
