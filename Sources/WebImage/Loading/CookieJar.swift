import WebImageCore
import Foundation
import Synchronization

/// An in-memory cookie store per host, used by requests with ``WebImageDownloaderOptions/handleCookies``.
///
/// Deliberately small: it keeps each `Set-Cookie` name=value pair for the response's host (an expiry in the
/// past or `Max-Age=0` deletes it) and sends them back as one `Cookie` header. Nothing is written to disk.
public final class CookieJar: Sendable {
    private let cookies = Mutex<[String: [String: String]]>([:])

    public init() {}

    /// The `Cookie` header value for `url`'s host, or nil when none is stored.
    public func cookieHeader(for url: URL) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let stored = cookies.withLock { $0[host] } ?? [:]
        guard !stored.isEmpty else { return nil }
        return stored.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    /// Stores every `Set-Cookie` of a response from `url`.
    public func store(_ head: TransportResponseHead, for url: URL) {
        guard let host = url.host?.lowercased() else { return }
        let setCookies = head.headers.filter { $0.name.caseInsensitiveCompare("Set-Cookie") == .orderedSame }
        guard !setCookies.isEmpty else { return }
        cookies.withLock { jar in
            for header in setCookies {
                let parts = header.value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
                let name = String(pair[..<equals]), value = String(pair[pair.index(after: equals)...])
                let deletes = parts.dropFirst().contains { $0.lowercased() == "max-age=0" }
                if deletes { jar[host]?[name] = nil } else { jar[host, default: [:]][name] = value }
            }
        }
    }

    /// Forgets every cookie.
    public func removeAll() {
        cookies.withLock { $0.removeAll() }
    }
}
