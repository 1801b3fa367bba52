import WebImageCore
import Foundation

/// Something that turns a URL into an image (SDWebImage's `SDImageLoader`): the downloader, or a custom source.
///
/// Every request calls its completion exactly once — with the image, or with a ``WebImageError`` (cancelling
/// the token gives `cancelled`).
public protocol ImageLoading: AnyObject, Sendable {
    /// Whether this loader handles `url` (usually by scheme).
    func canRequestImage(for url: URL) -> Bool
    /// Starts loading; `progress` gets (received, expected) with expected −1 while unknown, `partialImage`
    /// gets progressive partial images, `completion` the result, once.
    func requestImage(_ request: ImageDownloadRequest, progress: ImageDownloader.ProgressHandler?,
                      partialImage: ImageDownloader.PartialImageHandler?,
                      completion: @escaping ImageDownloader.CompletionHandler) -> any ImageLoadingToken
}

/// A running load; cancelling fails only this caller with `cancelled`.
public protocol ImageLoadingToken: Sendable {
    /// The URL being loaded.
    var url: URL { get }
    func cancel()
}
