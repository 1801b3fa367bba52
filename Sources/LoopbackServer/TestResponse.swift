import Foundation

/// What the loopback ``TestHTTPServer`` answers on one path: status, headers, body and how it misbehaves.
///
/// Plain values cover the usual cases (`TestResponse(body: jpegBytes)`); the behaviour, auth and validator
/// fields let a test reproduce slow, broken and conditional servers without a network.
public struct TestResponse: Sendable {
    /// How the server sends (or fails to send) the response.
    public enum Behavior: Sendable, Equatable {
        /// Head and body at once.
        case normal
        /// The body in `chunkSize`-byte pieces, `interval` apart (after the head).
        case drip(chunkSize: Int, interval: Duration)
        /// Reads the request and never answers; the connection stays open until the client gives up.
        case hang
        /// Closes the connection with a TCP reset before answering.
        case reset
        /// Sends the head (with the full `Content-Length`) and the first `bytes` bytes, then closes.
        case truncate(afterBytes: Int)
    }

    /// HTTP status code. Default 200.
    public var status: Int
    /// Extra headers (`Content-Length` is added by the server unless the body is chunked).
    public var headers: [(name: String, value: String)]
    /// The body bytes.
    public var body: Data
    /// How to send it. Default `.normal`.
    public var behavior: Behavior
    /// Wait this long before sending anything. Default zero.
    public var delay: Duration
    /// Send the body with `Transfer-Encoding: chunked` and no `Content-Length`. Default false.
    public var chunked: Bool
    /// When set, requests without this Basic `user:password` get 401 with a `WWW-Authenticate: Basic` challenge.
    public var basicAuth: (user: String, password: String)?
    /// When set, sent as `ETag`; a request whose `If-None-Match` matches gets 304 with no body.
    public var etag: String?
    /// When set, sent as `Last-Modified`; a request whose `If-Modified-Since` matches gets 304 with no body.
    public var lastModified: String?
    /// When set, nothing is sent (not even the delay starts) until the gate opens. Default nil.
    public var gate: TestGate?

    /// A response; every part defaults to a plain, immediate 200 with an empty body.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data(),
                behavior: Behavior = .normal, delay: Duration = .zero, chunked: Bool = false,
                basicAuth: (user: String, password: String)? = nil, etag: String? = nil, lastModified: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.behavior = behavior
        self.delay = delay
        self.chunked = chunked
        self.basicAuth = basicAuth
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The answer to `request`, after the auth and validator rules: a 401 challenge, a 304, or this response.
    func resolved(for request: RecordedRequest) -> TestResponse {
        if let basicAuth {
            let expected = "Basic " + Data("\(basicAuth.user):\(basicAuth.password)".utf8).base64EncodedString()
            if request.header("Authorization") != expected {
                return TestResponse(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"test\"")],
                                    body: Data("unauthorized".utf8))
            }
        }
        var validators: [(name: String, value: String)] = []
        if let etag { validators.append(("ETag", etag)) }
        if let lastModified { validators.append(("Last-Modified", lastModified)) }
        let etagMatches = etag != nil && request.header("If-None-Match") == etag
        let dateMatches = lastModified != nil && request.header("If-Modified-Since") == lastModified
        if etagMatches || dateMatches {
            return TestResponse(status: 304, headers: validators)
        }
        var copy = self
        copy.headers += validators
        return copy
    }
}
