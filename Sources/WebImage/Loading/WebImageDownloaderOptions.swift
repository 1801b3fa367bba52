import WebImageCore

/// Per-request download options (SDWebImage's `SDWebImageDownloaderOptions`).
///
/// The manager maps its own options onto these; pass them in ``ImageDownloadRequest/options``.
public struct WebImageDownloaderOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Queue behind normal and high-priority downloads.
    public static let lowPriority = WebImageDownloaderOptions(rawValue: 1 << 0)
    /// Show partial images while the bytes arrive (``ImageDownloader`` calls the partial-image handler).
    public static let progressiveLoad = WebImageDownloaderOptions(rawValue: 1 << 1)
    /// Revalidate with the server: sends `If-None-Match`/`If-Modified-Since` from
    /// ``ImageDownloadRequest/cachedValidators``; a 304 ends with ``WebImageError/cacheNotModified``.
    public static let refreshCached = WebImageDownloaderOptions(rawValue: 1 << 2)
    /// Accepted for SDWebImage compatibility and ignored: Linux has no app lifecycle to keep running through.
    public static let continueInBackground = WebImageDownloaderOptions(rawValue: 1 << 3)
    /// Send cookies stored for the host and store the ones the response sets (in the downloader's cookie jar).
    public static let handleCookies = WebImageDownloaderOptions(rawValue: 1 << 4)
    /// Accept any TLS certificate for this request (testing only).
    public static let allowInvalidSSLCertificates = WebImageDownloaderOptions(rawValue: 1 << 5)
    /// Queue ahead of normal and low-priority downloads.
    public static let highPriority = WebImageDownloaderOptions(rawValue: 1 << 6)
}
