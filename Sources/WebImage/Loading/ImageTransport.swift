import WebImageCore
import Foundation

/// Moves bytes for the downloader: starts a request, streams the response head and body, and can be cancelled.
///
/// The default is ``HTTPClientTransport`` (AsyncHTTPClient) for http(s) beside ``FileTransport`` for `file://`,
/// joined by ``RoutingTransport``; tests inject their own, and Apple platforms could add URLSession. A
/// transport calls its ``TransportResponseHandler`` serially: at most one head, then body chunks, then exactly
/// one completion — unless the task was cancelled, after which it may stay silent.
public protocol ImageTransport: Sendable {
    /// Whether this transport loads `url` (by scheme).
    func canLoad(_ url: URL) -> Bool
    /// Starts `request`, reporting to `handler`.
    func start(_ request: TransportRequest, handler: any TransportResponseHandler) -> any TransportTask
    /// Releases connections and threads; the transport accepts no requests afterwards.
    func shutdown() async throws
}

/// A running transfer.
public protocol TransportTask: Sendable {
    /// Stops the transfer; the handler may then get a completion with an error or nothing.
    func cancel()
}

/// Receives one transfer's events, serially, in order: head, chunks, completion.
public protocol TransportResponseHandler: Sendable {
    /// The status and headers arrived (once per transfer).
    func didReceive(_ head: TransportResponseHead)
    /// More body bytes; the pointer is valid only during the call.
    func didReceive(bytes: UnsafeRawBufferPointer)
    /// The transfer ended: nil when the whole body arrived, else why not.
    func didComplete(error: WebImageError?)
}

/// What to fetch and how.
public struct TransportRequest: Sendable {
    /// The URL to load.
    public var url: URL
    /// Request headers, in order (the downloader's, then the request modifier's).
    public var headers: [(name: String, value: String)]
    /// Accept any TLS certificate (self-signed, expired, wrong host).
    public var allowInvalidSSLCertificates: Bool

    /// A GET for `url` with these headers.
    public init(url: URL, headers: [(name: String, value: String)] = [], allowInvalidSSLCertificates: Bool = false) {
        self.url = url
        self.headers = headers
        self.allowInvalidSSLCertificates = allowInvalidSSLCertificates
    }

    /// The first value of a header (case-insensitive), or nil.
    public func value(forHeader name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Replaces every value of `name` by `value`, or removes the header when `value` is nil.
    public mutating func setValue(_ value: String?, forHeader name: String) {
        headers.removeAll { $0.name.equalsIgnoringASCIICase(name) }
        if let value { headers.append((name, value)) }
    }
}

/// The response head: status (nil for non-HTTP sources such as files), headers and the final URL.
public struct TransportResponseHead: Sendable {
    /// The HTTP status code; nil when the source has none (files), which skips status and type checks.
    public var status: Int?
    /// Response headers, in order.
    public var headers: [(name: String, value: String)]
    /// The URL that answered (after redirects).
    public var url: URL

    /// A head as a transport received it.
    public init(status: Int?, headers: [(name: String, value: String)], url: URL) {
        self.status = status
        self.headers = headers
        self.url = url
    }

    /// The first value of a header (case-insensitive), or nil.
    public func value(forHeader name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// `Content-Length` when present and valid, else nil.
    public var expectedContentLength: Int? {
        value(forHeader: "Content-Length").flatMap { Int($0.trimmingOptionalWhitespace) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Whether the body was sent with a `Content-Encoding` other than `identity` (gzip, deflate…).
    public var isContentEncoded: Bool {
        guard let encoding = value(forHeader: "Content-Encoding")?.trimmingOptionalWhitespace else { return false }
        return !encoding.isEmpty && !encoding.equalsIgnoringASCIICase("identity")
    }

    /// The media type of `Content-Type` without parameters, lowercased (`image/png`), or nil.
    public var mimeType: String? {
        value(forHeader: "Content-Type")?.split(separator: ";").first
            .map { $0.trimmingOptionalWhitespace.lowercased() }
    }
}
