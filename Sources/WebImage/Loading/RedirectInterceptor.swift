import WebImageCore
import Foundation
import Synchronization

/// How one hop of a transfer ended.
public enum HopEnd: Sendable {
    /// The response (or the failure) went to the handler, completion included.
    case finished
    /// The source redirects to this URL; the handler saw nothing of this hop.
    case redirect(URL)
}

/// Forwards one hop's events to a handler, except a redirect, which it swallows and reports, so that whoever
/// follows redirects (``HTTPClientTransport``, the image service's guarded transport) can check the next URL
/// (its scheme included) before any connection is made to it.
///
/// A 301, 302, 303, 307 or 308 whose `Location` parses as a URL (relative to the hop's URL) is a redirect; any
/// other answer is forwarded as the response.
public final class RedirectInterceptor: TransportResponseHandler, Sendable {
    private struct State {
        var redirect: URL?
        var onEnd: (@Sendable (HopEnd) -> Void)?
    }

    private static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// The URL this hop asked for: the response's URL and the base of a relative `Location`.
    public let url: URL
    private let handler: any TransportResponseHandler
    private let state: Mutex<State>

    /// Forwards to `handler`; `onEnd` runs once, after the hop's completion.
    public init(url: URL, handler: any TransportResponseHandler, onEnd: @escaping @Sendable (HopEnd) -> Void) {
        self.url = url
        self.handler = handler
        state = Mutex(State(onEnd: onEnd))
    }

    public func didReceive(_ head: TransportResponseHead) {
        if let next = redirectTarget(head) {
            state.withLock { $0.redirect = next }
            return
        }
        handler.didReceive(TransportResponseHead(status: head.status, headers: head.headers, url: url))
    }

    public func didReceive(bytes: UnsafeRawBufferPointer) {
        guard state.withLock({ $0.redirect == nil }) else { return }
        handler.didReceive(bytes: bytes)
    }

    public func didComplete(error: WebImageError?) {
        let (redirect, onEnd) = state.withLock { state in
            defer { state.onEnd = nil }
            return (state.redirect, state.onEnd)
        }
        if let redirect {
            onEnd?(.redirect(redirect))
            return
        }
        handler.didComplete(error: error)
        onEnd?(.finished)
    }

    private func redirectTarget(_ head: TransportResponseHead) -> URL? {
        guard let status = head.status, Self.redirectStatuses.contains(status),
              let location = head.value(forHeader: "Location"),
              let next = URL(string: location, relativeTo: url)?.absoluteURL else { return nil }
        return next
    }
}
