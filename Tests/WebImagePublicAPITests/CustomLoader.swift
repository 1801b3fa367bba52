import Foundation
import Synchronization
import WebImage

/// A loader over an app's own storage (`asset://NAME`), written as a user of the package would write one.
final class AssetLoader: ImageLoading {
    private let assets: [String: Data]
    private let requested = Mutex<[URL]>([])

    init(assets: [String: Data]) {
        self.assets = assets
    }

    /// Every URL this loader was asked for, in order.
    var requests: [URL] { requested.withLock { $0 } }

    func canRequestImage(for url: URL) -> Bool { url.scheme == "asset" }

    func requestImage(_ request: ImageDownloadRequest, progress: ImageDownloader.ProgressHandler?,
                      partialImage: ImageDownloader.PartialImageHandler?,
                      completion: @escaping ImageDownloader.CompletionHandler) -> any ImageLoadingToken {
        requested.withLock { $0.append(request.url) }
        let token = AssetToken(url: request.url)
        DispatchQueue.global().async { [assets] in
            guard !token.isCancelled else { return completion(.failure(.cancelled)) }
            guard let data = assets[request.url.host ?? ""] else {
                return completion(.failure(.invalidDownloadResponse("no asset named \(request.url.host ?? "")")))
            }
            progress?(data.count, data.count)
            do {
                let image = try CodersManager.shared.decode(data, options: request.decodeOptions)
                completion(.success(ImageDownloadResult(image: image, data: data)))
            } catch let error as WebImageError {
                completion(.failure(error))
            } catch {
                completion(.failure(.badImageData(.corrupt("\(error)"))))
            }
        }
        return token
    }
}

final class AssetToken: ImageLoadingToken {
    let url: URL
    private let cancelled = Atomic<Bool>(false)

    init(url: URL) {
        self.url = url
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }
}
