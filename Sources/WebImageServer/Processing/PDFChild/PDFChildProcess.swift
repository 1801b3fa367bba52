#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import WebImage

/// One PDF child and the service's ends of its pipes: the request written and the reply read in one poll
/// loop on the worker's thread, which kills the child at the deadline or a cancellation.
final class PDFChildProcess {
    private let process: Process
    private let input: Pipe
    private let output: Pipe
    private let rendering: ImageProxyConfiguration.PDFRendering
    /// Foundation's `Process.run` closes in the child only the descriptors open when it looked, and makes its
    /// pipes without close-on-exec: two children started at once could each hold the other's pipes.
    private static let launching = Mutex(())

    init(_ rendering: ImageProxyConfiguration.PDFRendering) throws(ProxyError) {
        self.rendering = rendering
        let started = Self.launching.withLock { _ -> Result<(Process, Pipe, Pipe), ProxyError> in
            let process = Process(), input = Pipe(), output = Pipe()
            process.executableURL = rendering.executable
            process.arguments = rendering.arguments
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                return .failure(.unavailable("the PDF renderer \(rendering.executable.path) cannot start: \(error)"))
            }
            return .success((process, input, output))
        }
        (process, input, output) = try started.get()
        FileDescriptorIO.setNonBlocking(input.fileHandleForWriting.fileDescriptor)
        FileDescriptorIO.setNonBlocking(output.fileHandleForReading.fileDescriptor)
    }

    /// Sends `request` and `document`, then reads the reply's pixels into `pixels` (exactly the request's
    /// size); a failure reply, a child that ends or misbehaves, the deadline and a cancellation throw.
    func exchange(_ request: PDFPageWire.Request, document: Data, into pixels: UnsafeMutableRawBufferPointer,
                  deadline: ContinuousClock.Instant, cancellation: WorkCancellation?) throws(ProxyError) {
        var sending = OutgoingBytes(parts: [Data(request.header), document])
        var reply = PDFReplyReader(expected: request.size)
        let inputDescriptor = input.fileHandleForWriting.fileDescriptor
        let outputDescriptor = output.fileHandleForReading.fileDescriptor
        while !reply.isComplete {
            if Self.isOver(deadline, cancellation) { throw .processingTimeout }
            var descriptors = [pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)]
            if !sending.isDone { descriptors.append(pollfd(fd: inputDescriptor, events: Int16(POLLOUT), revents: 0)) }
            let waitMilliseconds = min(50, max(1, (deadline - ContinuousClock.now).milliseconds))
            guard poll(&descriptors, nfds_t(descriptors.count), Int32(waitMilliseconds)) >= 0 || errno == EINTR else {
                throw .unavailable("the PDF renderer's pipes failed: errno \(errno)")
            }
            if descriptors.count > 1, descriptors[1].revents != 0, !sending.send(to: inputDescriptor) {
                try? input.fileHandleForWriting.close()
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

    /// Kills the child (and anything it started: Foundation makes it a process group of its own) unless it has
    /// ended, reaps it and closes the service's ends of its pipes.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? output.fileHandleForReading.close()
    }

    /// Why a child that stopped answering did: its limits, a crash, or a reply that is not one. A child that
    /// closed its output but goes on running is waited for no longer than the page could have taken.
    private func ended(_ reply: PDFReplyReader, deadline: ContinuousClock.Instant,
                       cancellation: WorkCancellation?) -> ProxyError {
        if let protocolError = reply.protocolError {
            return .unavailable("the PDF renderer \(rendering.executable.path) answered wrongly: \(protocolError)")
        }
        while process.isRunning {
            if Self.isOver(deadline, cancellation) { return .processingTimeout }
            usleep(2_000)
        }
        process.waitUntilExit()
        let memory = "\(rendering.memoryAllowance >> 20) MiB besides the document and the page"
        guard process.terminationReason == .uncaughtSignal else {
            return .unavailable("the PDF renderer \(rendering.executable.path) exited with status "
                + "\(process.terminationStatus) without an answer")
        }
        let signal = process.terminationStatus
        if signal == SIGXCPU {
            return .unprocessable("the PDF page was not drawn within the renderer's \(rendering.cpuSeconds) s of CPU")
        }
        return .unprocessable("the PDF page could not be drawn within the renderer's memory (\(memory)): "
            + "it ended by signal \(signal)")
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
