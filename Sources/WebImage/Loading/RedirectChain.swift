import WebImageCore
import Foundation
import Synchronization

/// One request of ``HTTPClientTransport`` and the redirects it follows, hop by hop.
///
/// AsyncHTTPClient builds a redirect's request itself, and traps on a `Location` with a port above 65535, so
/// the transport follows redirects here: each target must be http(s), pass ``URLValidation``, not have been
/// visited (no cycles) and be within the limit. Headers that carry credentials (`Authorization`,
/// `Proxy-Authorization`, `Cookie`) and `Origin` are dropped when the target is on another origin, as
/// AsyncHTTPClient does.
final class RedirectChain: TransportTask, Sendable {
    private struct State {
        var cancelled = false
        var hop: (any TransportTask)?
        var visited: [String] = []
    }

    private static let originHeaders = ["Authorization", "Proxy-Authorization", "Cookie", "Origin"]

    private let transport: HTTPClientTransport
    private let handler: any TransportResponseHandler
    private let state: Mutex<State>

    init(transport: HTTPClientTransport, request: TransportRequest, handler: any TransportResponseHandler) {
        self.transport = transport
        self.handler = handler
        state = Mutex(State(visited: [request.url.absoluteString]))
    }

    /// Starts one hop; its redirect, if any, starts the next.
    func run(_ request: TransportRequest) {
        let interceptor = RedirectInterceptor(url: request.url, handler: handler) { end in
            if case .redirect(let next) = end { self.follow(from: request, to: next) }
        }
        let hop = transport.startHop(request, handler: interceptor)
        let cancelled = state.withLock { state in
            state.hop = hop
            return state.cancelled
        }
        if cancelled { hop.cancel() }
    }

    func cancel() {
        let hop = state.withLock { state in
            state.cancelled = true
            return state.hop
        }
        hop?.cancel()
    }

    private func follow(from request: TransportRequest, to next: URL) {
        let verdict = state.withLock { state -> Verdict in
            if state.cancelled { return .cancelled }
            if state.visited.count > transport.redirectLimit { return .tooMany }
            if state.visited.contains(next.absoluteString) { return .cycle }
            state.visited.append(next.absoluteString)
            return .follow
        }
        switch verdict {
        case .cancelled:
            handler.didComplete(error: .cancelled)
        case .tooMany:
            handler.didComplete(error: .transport(TransportFailure(
                kind: .tooManyRedirects, message: "more than \(transport.redirectLimit) redirects")))
        case .cycle:
            handler.didComplete(error: .transport(TransportFailure(
                kind: .tooManyRedirects, message: "redirect cycle: \(next.absoluteString) was visited before")))
        case .follow:
            if let error = Self.error(redirectingTo: next) {
                handler.didComplete(error: error)
                return
            }
            var hop = request
            hop.url = next
            if !Self.sameOrigin(request.url, next) {
                for name in Self.originHeaders { hop.setValue(nil, forHeader: name) }
            }
            run(hop)
        }
    }

    private enum Verdict {
        case cancelled, tooMany, cycle, follow
    }

    private static func error(redirectingTo url: URL) -> WebImageError? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return URLValidation.invalid(url, "a redirect target: only http and https redirects are followed")
        }
        return URLValidation.redirectTargetError(url)
    }

    private static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && a.port == b.port
    }
}
