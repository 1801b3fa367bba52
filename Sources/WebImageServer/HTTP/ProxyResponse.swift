import Foundation

/// What the service answers, before it becomes a Hummingbird `Response`: status, headers and body.
public struct ProxyResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Headers every answer carries: nothing a browser might sniff or run.
    static let hardening: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", "default-src 'none'; sandbox"),
    ]

    /// A short text answer for `error`: `no-store` for 4xx, a short `max-age` for 5xx, `Retry-After` for 429.
    static func error(_ error: ProxyError, errorTTL: Int, retryAfter: Int) -> ProxyResponse {
        var headers = hardening + [("Content-Type", "text/plain; charset=utf-8")]
        headers.append(("Cache-Control", error.status >= 500 ? "max-age=\(errorTTL)" : "no-store"))
        if case .tooManyRequests = error { headers.append(("Retry-After", String(retryAfter))) }
        return ProxyResponse(status: error.status, headers: headers, body: Data((error.description + "\n").utf8))
    }

    /// A short JSON or text answer that is not an image (`/health`, `/ready`, `/info`).
    static func plain(_ status: Int, _ body: String, contentType: String = "text/plain; charset=utf-8") -> ProxyResponse {
        ProxyResponse(status: status, headers: hardening + [("Content-Type", contentType), ("Cache-Control", "no-store")],
                      body: Data(body.utf8))
    }
}
