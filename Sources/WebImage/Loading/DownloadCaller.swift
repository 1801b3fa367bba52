import WebImageCore
import Foundation

/// One caller attached to a download: its own decode options and handlers.
struct DownloadCaller: Sendable {
    /// Unique within the downloader; the token carries it.
    let id: Int
    let decodeOptions: ImageDecodeOptions
    /// Asked for partial images (`progressiveLoad`).
    let wantsPartials: Bool
    let progress: ImageDownloader.ProgressHandler?
    let partialImage: ImageDownloader.PartialImageHandler?
    let completion: ImageDownloader.CompletionHandler
    /// Set for callers that want the bytes, not an image (``ImageDownloader/downloadData(with:completion:)``):
    /// a finished body goes here undecoded; failures still go to ``completion``.
    var bytesCompletion: (@Sendable (DownloadedBody) -> Void)? = nil
}

/// What a finished transfer produced, shared by every caller of the download.
struct DownloadedBody: Sendable {
    /// The bytes after the decryptor.
    var data: Data
    var head: TransportResponseHead?
}

/// A download's outcome before per-caller decoding.
typealias DownloadOutcome = Result<DownloadedBody, WebImageError>
