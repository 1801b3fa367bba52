import Foundation
import HTTPTypes

/// What the service answers, before it becomes a Hummingbird `Response`: status, headers and body.
public struct ProxyResponse: Sendable {
    public var status: Int
    /// The header fields in order, names as sent.
    public var headers: [(name: String, value: String)] {
        get {
            switch storedHeaders {
            case .pairs(let pairs): pairs
            case .fields(let fields): fields.map { ($0.name.rawName, $0.value) }
            }
        }
        set { storedHeaders = .pairs(newValue) }
    }
    public var body: Data

    /// A result's answer keeps the fields it was built as (``init(status:fields:body:)``), which Hummingbird sends
    /// as they are.
    enum Headers: Sendable {
        case pairs([(name: String, value: String)])
        /// Valid names and values only, with `Content-Length` unless the status is 304.
        case fields(HTTPFields)
    }

    private(set) var storedHeaders: Headers

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        storedHeaders = .pairs(headers)
        self.body = body
    }

    /// An answer with `fields`: valid names and values only, and `Content-Length` unless `status` is 304.
    init(status: Int, fields: HTTPFields, body: Data = Data()) {
        self.status = status
        storedHeaders = .fields(fields)
        self.body = body
    }

    /// Headers every answer carries: nothing a browser might sniff or run.
    static let hardeningFields = [
        HTTPField(name: ResponseFieldName.contentTypeOptions, value: "nosniff"),
        HTTPField(name: ResponseFieldName.contentSecurityPolicy, value: "default-src 'none'; sandbox"),
    ]

    /// ``hardeningFields`` as name and value.
    static let hardening = hardeningFields.map { (name: $0.name.rawName, value: $0.value) }

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
