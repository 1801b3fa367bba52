import WebImageCore
import Foundation
import Synchronization

/// Several loaders behind one (SDWebImage's `SDImageLoadersManager`): the last added that can request a URL
/// handles it.
///
/// ```swift
/// let loaders = LoadersManager(loaders: [ImageDownloader.shared])
/// loaders.addLoader(MyAssetLoader())   // asked first from now on
/// ```
public final class LoadersManager: ImageLoading {
    /// The process-wide manager, holding ``ImageDownloader/shared``.
    public static let shared = LoadersManager(loaders: [ImageDownloader.shared])

    private let state: Mutex<[any ImageLoading]>

    /// A manager over `loaders`, the last one asked first.
    public init(loaders: [any ImageLoading] = []) {
        state = Mutex(loaders)
    }

    /// The loaders, lowest priority first.
    public var loaders: [any ImageLoading] { state.withLock { $0 } }

    /// Adds a loader with the highest priority.
    public func addLoader(_ loader: any ImageLoading) {
        state.withLock { $0.append(loader) }
    }

    /// Removes a loader (by identity).
    public func removeLoader(_ loader: any ImageLoading) {
        state.withLock { $0.removeAll { $0 === loader } }
    }

    public func canRequestImage(for url: URL) -> Bool {
        loaders.contains { $0.canRequestImage(for: url) }
    }

    public func requestImage(_ request: ImageDownloadRequest, progress: ImageDownloader.ProgressHandler?,
                             partialImage: ImageDownloader.PartialImageHandler?,
                             completion: @escaping ImageDownloader.CompletionHandler) -> any ImageLoadingToken {
        guard let loader = loaders.reversed().first(where: { $0.canRequestImage(for: request.url) }) else {
            DispatchQueue.global().async {
                completion(.failure(.invalidURL("\(request.url.absoluteString) (no loader handles this URL)")))
            }
            return ImageDownloadToken(url: request.url, callerID: -1, operation: nil)
        }
        return loader.requestImage(request, progress: progress, partialImage: partialImage, completion: completion)
    }
}
