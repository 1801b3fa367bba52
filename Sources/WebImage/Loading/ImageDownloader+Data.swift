import WebImageCore
import Foundation
import Synchronization

/// A finished download's bytes, undecoded, with the response they came in.
public struct ImageDownloadData: Sendable {
    /// The downloaded bytes (after the decryptor).
    public var data: Data
    /// The response head (nil only for transports that send none).
    public var response: TransportResponseHead?

    /// Bytes as a loader delivers them.
    public init(data: Data, response: TransportResponseHead? = nil) {
        self.data = data
        self.response = response
    }
}

extension ImageDownloader {
    /// The result of ``downloadData(with:completion:)``, called exactly once.
    public typealias DataCompletionHandler = @Sendable (Result<ImageDownloadData, WebImageError>) -> Void

    /// Downloads `request.url` like ``downloadImage(with:progress:partialImage:completion:)`` (coalesced with
    /// every other caller of the URL, the same limits and deadlines) but hands back the bytes undecoded, for
    /// callers that read the header first and decode later at the size they need (an image service).
    /// ``ImageDownloadRequest/decodeOptions`` and ``WebImageDownloaderOptions/progressiveLoad`` are ignored.
    @discardableResult
    public func downloadData(with request: ImageDownloadRequest, progress: ProgressHandler? = nil,
                             completion: @escaping DataCompletionHandler) -> ImageDownloadToken {
        var request = request
        request.options.remove(.progressiveLoad)
        return attach(request, progress: progress, partialImage: nil, completion: { result in
            if case .failure(let error) = result { completion(.failure(error)) }
        }, bytesCompletion: { body in
            completion(.success(ImageDownloadData(data: body.data, response: body.head)))
        })
    }

    /// ``downloadData(with:progress:completion:)`` as an `async` call; cancelling the calling task cancels
    /// this caller's token (the download goes on for other callers).
    public func data(for request: ImageDownloadRequest,
                     progress: ProgressHandler? = nil) async throws(WebImageError) -> ImageDownloadData {
        let token = Mutex<ImageDownloadToken?>(nil)
        let result: Result<ImageDownloadData, WebImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let started = downloadData(with: request, progress: progress) { continuation.resume(returning: $0) }
                token.withLock { $0 = started }
                if Task.isCancelled { started.cancel() }
            }
        } onCancel: {
            token.withLock { $0 }?.cancel()
        }
        return try result.get()
    }
}
