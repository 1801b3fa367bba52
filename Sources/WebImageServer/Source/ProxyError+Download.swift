import WebImage

extension ProxyError {
    /// The answer for a source that could not be fetched or read.
    init(source error: WebImageError) {
        if let refusal = SourceRefusal.unwrap(error) {
            self = refusal
            return
        }
        switch error {
        case .invalidDownloadStatusCode(let status, _) where status == 404 || status == 410:
            self = .notFound("the source answered \(status)")
        case .invalidDownloadStatusCode(let status, _):
            self = .badGateway("the source answered \(status)")
        case .transport(let failure) where failure.kind == .timeout:
            self = .gatewayTimeout(failure.message)
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
