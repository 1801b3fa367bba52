import Foundation
import HTTPTypes
import Synchronization
import WebImage

/// The header fields of a result's answer that depend on the result alone (its validators, type and length),
/// made once with the result rather than per answer. A class: a result is copied on every memory hit, and its
/// fields then cost one reference count rather than one per string.
final class ResultFields: Sendable {
    let etag: HTTPField
    let lastModified: HTTPField
    let contentType: HTTPField
    let contentLength: HTTPField

    init(format: ImageFormat, etag: String, lastModified: Date, byteCount: Int) {
        self.etag = HTTPField(name: ResponseFieldName.etag, value: etag)
        self.lastModified = HTTPField(name: ResponseFieldName.lastModified, value: HTTPDate.format(lastModified))
        contentType = HTTPField(name: ResponseFieldName.contentType, value: ProxyResponse.contentType(of: format))
        contentLength = HTTPField(name: ResponseFieldName.contentLength, value: String(byteCount))
    }
}

/// The names of the fields the service answers with, spelled as it sends them.
enum ResponseFieldName {
    static let contentTypeOptions = name("X-Content-Type-Options")
    static let contentSecurityPolicy = name("Content-Security-Policy")
    static let cacheControl = name("Cache-Control")
    static let expires = name("Expires")
    static let etag = name("ETag")
    static let lastModified = name("Last-Modified")
    static let vary = name("Vary")
    static let contentDisposition = name("Content-Disposition")
    static let contentType = name("Content-Type")
    static let contentLength = name("Content-Length")

    private static func name(_ text: String) -> HTTPField.Name {
        guard let name = HTTPField.Name(text) else { preconditionFailure("\(text) is not a field name") }
        return name
    }
}

/// A result answer's `Cache-Control` and `Expires`, which change with the TTL and the second: the last of each is
/// kept, so answers within one second (nearly all share the configured TTL) format neither again.
final class ResultExpiryFields: Sendable {
    private struct Last {
        var ttl = -1
        var cacheControl = HTTPField(name: ResponseFieldName.cacheControl, value: "")
        var expiresSecond = Double.nan
        var expires = HTTPField(name: ResponseFieldName.expires, value: "")
    }

    private let last = Mutex(Last())

    /// `public, max-age=TTL, immutable` and the date `ttl` seconds from now, for a TTL of at least 0.
    func fields(ttl: Int) -> (cacheControl: HTTPField, expires: HTTPField) {
        let second = HTTPDate.second(of: Date(timeIntervalSinceNow: TimeInterval(ttl)))
        return last.withLock { last in
            if last.ttl != ttl {
                last.ttl = ttl
                last.cacheControl = HTTPField(name: ResponseFieldName.cacheControl, value: "public, max-age=\(ttl), immutable")
            }
            if last.expiresSecond != second {
                last.expiresSecond = second
                last.expires = HTTPField(name: ResponseFieldName.expires, value: HTTPDate.format(second: second))
            }
            return (last.cacheControl, last.expires)
        }
    }
}
