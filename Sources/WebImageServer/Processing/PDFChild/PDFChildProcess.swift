#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Spawning
import WebImage

/// One PDF child over a ``ChildExchange``: the request written and the reply read on the worker's thread, the child
/// killed at the deadline or a cancellation, its ends typed errors of the request.
final class PDFChildProcess {
    private let exchange: ChildExchange
    private let rendering: ImageProxyConfiguration.PDFRendering

    init(_ rendering: ImageProxyConfiguration.PDFRendering) throws(ProxyError) {
        self.rendering = rendering
        do {
            // Named by the file `/proc/self/exe` stands for, as `ps` would show the service itself. Its standard
            // error (poppler's warnings through GLib's default writer, libjpeg's) is the service's while that is
            // captured, so its lines are logged as a library's; never the raw stream.
            exchange = try ChildExchange(executable: rendering.executable.path,
                                         name: rendering.executable.resolvingSymlinksInPath().path,
                                         arguments: rendering.arguments, stderr: LibraryLogs.standardErrorForChildren)
        } catch .pipes(let code) {
            throw .unavailable("the PDF renderer's pipes cannot be made: errno \(code)")
        } catch {
            throw .unavailable("the PDF renderer \(rendering.executable.path) cannot start: \(error)")
        }
    }

    /// Sends `request` and `document`, then reads the reply's pixels into `pixels` (exactly the request's
    /// size); a failure reply, a child that ends or misbehaves, the deadline and a cancellation throw.
    func exchange(_ request: PDFPageWire.Request, document: Data, into pixels: UnsafeMutableRawBufferPointer,
                  deadline: ContinuousClock.Instant, cancellation: WorkCancellation?) throws(ProxyError) {
        var reply = PDFReplyReader(expected: request.size)
        let isCancelled = { cancellation?.isCancelled == true }
        do {
            try exchange.exchange(sending: [Data(request.header), document], deadline: deadline, isCancelled: isCancelled,
                                  isComplete: { reply.isComplete }, read: { reply.read(from: $0, into: pixels) })
        } catch .readerStopped {
            if let protocolError = reply.protocolError {
                throw .unavailable("the PDF renderer \(rendering.executable.path) answered wrongly: \(protocolError)")
            }
            guard let termination = exchange.termination(until: deadline, isCancelled: isCancelled) else {
                throw .processingTimeout
            }
            throw failure(after: termination)
        } catch .timedOut, .cancelled {
            throw .processingTimeout
        } catch .pipes(let code) {
            throw .unavailable("the PDF renderer's pipes failed: errno \(code)")
        } catch {
            throw .unavailable("the PDF renderer failed: \(error)")
        }
        if let failure = reply.failure { throw .unprocessable(failure) }
    }

    /// Kills the child (and anything it started) unless it has ended, reaps it and closes the pipes.
    func stop() {
        exchange.stop()
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
