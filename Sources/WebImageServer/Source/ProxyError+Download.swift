import WebImage

extension ProxyError {
    /// The answer for a source that could not be fetched or read.
    init(source error: WebImageError) {
        if let refusal = SourceRefusal.unwrap(error) {
            self = refusal
            return
        }
        // imgproxy 4's answers: the origin's own client errors, 502 for its server errors, 504 for its silence,
        // and 404 for a source that cannot be reached at all (refused, reset, unresolvable, bad TLS, redirect loops).
        switch error {
        case .invalidDownloadStatusCode(404, _):
            self = .notFound("the source answered 404")
        case .invalidDownloadStatusCode(let status, _) where (400..<500).contains(status):
            self = .sourceClientError(status: status, "the source answered \(status)")
        case .invalidDownloadStatusCode(let status, _):
            self = .badGateway("the source answered \(status)")
        case .transport(let failure) where failure.kind == .timeout:
            self = .gatewayTimeout(failure.message)
        case .transport(let failure):
            self = .notFound("the source is unreachable: \(failure.message)")
        case .responseTooLarge(let limit):
            self = .unprocessable("the source is larger than the \(limit)-byte limit")
        case .badImageData(let reason):
            self = .unprocessable(reason.description)
        case .invalidDownloadContentType:
            self = .unprocessable(error.description)
        case .invalidURL:
            // Sources are checked before they are fetched: this is a redirect to a URL no client can load.
            self = .notFound("the source is unreachable: \(error.description)")
        default:
            self = .badGateway(error.description)
        }
    }
}
