import WebImageCore
import Foundation
import Synchronization

extension ImageDownloader {
    /// Downloads and decodes `request.url`; cancelling the calling task cancels this caller's token.
    ///
    /// ```swift
    /// let download = try await ImageDownloader.shared.image(for: ImageDownloadRequest(url: url))
    /// ```
    public func image(for request: ImageDownloadRequest, progress: ProgressHandler? = nil,
                      partialImage: PartialImageHandler? = nil) async throws(WebImageError) -> ImageDownloadResult {
        let token = Mutex<ImageDownloadToken?>(nil)
        let result: Result<ImageDownloadResult, WebImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let started = downloadImage(with: request, progress: progress, partialImage: partialImage) {
                    continuation.resume(returning: $0)
                }
                token.withLock { $0 = started }
                if Task.isCancelled { started.cancel() }
            }
        } onCancel: {
            token.withLock { $0 }?.cancel()
        }
        return try result.get()
    }
}
