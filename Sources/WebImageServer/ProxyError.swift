/// Why the image service refuses or fails a request, with the HTTP status it answers.
///
/// Every failure a client or a source can cause maps to one of these; the message is the short text body.
public enum ProxyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A malformed path or processing option (400).
    case badRequest(String)
    /// A missing or wrong signature (403).
    case forbidden(String)
    /// A source the operator does not allow: scheme, allowlist or address (404, as imgproxy's source URL and
    /// source address errors).
    case sourceNotAllowed(String)
    /// The source answered 404 or cannot be reached, or the URL expired (404).
    case notFound(String)
    /// The source answered another client error: that status (400–499), as imgproxy passes it on.
    case sourceClientError(status: Int, String)
    /// The source is not an image, or is over a limit (422).
    case unprocessable(String)
    /// The queue is full (429).
    case tooManyRequests
    /// The source failed otherwise (502).
    case badGateway(String)
    /// Processing took longer than allowed (503).
    case processingTimeout
    /// The service is shutting down (503).
    case unavailable(String)
    /// The source did not answer in time (504).
    case gatewayTimeout(String)

    /// The HTTP status code.
    public var status: Int {
        switch self {
        case .badRequest: 400
        case .forbidden: 403
        case .notFound, .sourceNotAllowed: 404
        case .sourceClientError(let status, _): status
        case .unprocessable: 422
        case .tooManyRequests: 429
        case .badGateway: 502
        case .processingTimeout, .unavailable: 503
        case .gatewayTimeout: 504
        }
    }

    /// The detail alone, without the kind of failure in front.
    public var message: String {
        switch self {
        case .badRequest(let message), .forbidden(let message), .sourceNotAllowed(let message),
             .notFound(let message), .sourceClientError(_, let message), .unprocessable(let message),
             .badGateway(let message),
             .gatewayTimeout(let message), .unavailable(let message):
            message
        case .tooManyRequests, .processingTimeout: description
        }
    }

    public var description: String {
        switch self {
        case .badRequest(let message): "bad request: \(message)"
        case .forbidden(let message): "forbidden: \(message)"
        case .sourceNotAllowed(let message): "source not allowed: \(message)"
        case .notFound(let message): "not found: \(message)"
        case .sourceClientError(_, let message): "source error: \(message)"
        case .unprocessable(let message): "cannot process: \(message)"
        case .tooManyRequests: "too many requests: the queue is full, retry later"
        case .badGateway(let message): "source error: \(message)"
        case .processingTimeout: "processing timed out"
        case .unavailable(let message): "unavailable: \(message)"
        case .gatewayTimeout(let message): "source timed out: \(message)"
        }
    }
}
