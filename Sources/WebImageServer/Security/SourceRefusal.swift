import WebImage

/// Carries a source policy refusal through the downloader, whose errors are ``WebImageError``s, so the service
/// can answer its refusal for a redirect hop refused inside the transport.
enum SourceRefusal {
    private static let marker = "source refused by policy: "

    /// The downloader error standing for `error`.
    static func wrap(_ error: ProxyError) -> WebImageError {
        .invalidDownloadOperation(marker + error.message)
    }

    /// The refusal `error` stands for, if it is one.
    static func unwrap(_ error: WebImageError) -> ProxyError? {
        guard case .invalidDownloadOperation(let why) = error, why.hasPrefix(marker) else { return nil }
        return .sourceNotAllowed(String(why.dropFirst(marker.count)))
    }
}
