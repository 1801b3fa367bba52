import Foundation
import Synchronization

extension ImageManager {
    /// Loads `url` and returns the first finished result; cancelling the calling task cancels the load.
    ///
    /// Throws the load's ``WebImageError`` (`cancelled` when the task was cancelled). A load that ends
    /// without an image and without an error (``WebImageOptions/fromCacheOnly`` on a miss, a download the
    /// delegate refused) throws ``WebImageError/invalidDownloadOperation(_:)`` (2000). With
    /// ``WebImageOptions/refreshCached`` the cached image is returned at once and revalidation continues in the
    /// background (updating the cache); use ``imageEvents(for:options:context:)`` to see both.
    ///
    /// ```swift
    /// let result = try await ImageManager.shared.image(for: URL(string: "https://example.com/a.jpg"))
    /// print(result.image.pixelSize, result.cacheType)
    /// ```
    public func image(for url: URL?, options: WebImageOptions = [],
                      context: WebImageContext = WebImageContext()) async throws(WebImageError) -> ImageLoadResult {
        let operation = Mutex<ImageCombinedOperation?>(nil)
        let result: Result<ImageLoadResult, WebImageError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let once = Countdown(1)
                let resume: @Sendable (Result<ImageLoadResult, WebImageError>) -> Void = { result in
                    guard once.tick() else { return }
                    continuation.resume(returning: result)
                }
                var quiet = context
                quiet.callbackQueue = nil
                let started = startLoad(url: url, options: options, context: quiet, progress: nil, deliver: { outcome in
                    guard outcome.finished else { return }
                    resume(Self.result(of: outcome))
                }, onEnd: { resume(.failure(.cancelled)) })
                operation.withLock { $0 = started }
                if Task.isCancelled { started.cancel() }
            }
        } onCancel: {
            operation.withLock { $0 }?.cancel()
        }
        return try result.get()
    }

    /// ``image(for:options:context:)`` for a URL string (empty or unparseable: 1000 invalidURL).
    public func image(for string: String?, options: WebImageOptions = [],
                      context: WebImageContext = WebImageContext()) async throws(WebImageError) -> ImageLoadResult {
        try await image(for: string.flatMap(URL.init(string:)), options: options, context: context)
    }

    /// Observes one load as a sequence of events: progress, partial images, then the result(s) or the failure.
    ///
    /// The load starts at once and the stream buffers its events until they are read. Ending the iteration early (or cancelling the iterating task) cancels the load. The sequence
    /// finishes when the load ends.
    ///
    /// ```swift
    /// for await event in manager.imageEvents(for: url, options: .progressiveLoad) {
    ///     if case .partialImage(let partial) = event { show(partial) }
    /// }
    /// ```
    public func imageEvents(for url: URL?, options: WebImageOptions = [],
                            context: WebImageContext = WebImageContext()) -> AsyncStream<ImageLoadEvent> {
        let (stream, continuation) = AsyncStream<ImageLoadEvent>.makeStream()
        var quiet = context
        quiet.callbackQueue = nil
        let operation = startLoad(url: url, options: options, context: quiet, progress: { received, expected, _ in
            continuation.yield(.progress(received: received, expected: expected))
        }, deliver: { outcome in
            guard outcome.finished else {
                if let partial = outcome.image { continuation.yield(.partialImage(partial)) }
                return
            }
            switch Self.result(of: outcome) {
            case .success(let result): continuation.yield(.result(result))
            case .failure where outcome.error == nil: continuation.yield(.noImage)
            case .failure(let error): continuation.yield(.failure(error))
            }
        }, onEnd: { continuation.finish() })
        continuation.onTermination = { termination in
            if case .cancelled = termination { operation.cancel() }
        }
        return stream
    }

    /// A finished outcome as a result; no image and no error becomes 2000 (nothing could be loaded).
    static func result(of outcome: ImageLoadOutcome) -> Result<ImageLoadResult, WebImageError> {
        if let error = outcome.error { return .failure(error) }
        guard let image = outcome.image, let url = outcome.url else {
            return .failure(.invalidDownloadOperation(
                "no cached image and no download allowed (fromCacheOnly, or the delegate refused)"))
        }
        return .success(ImageLoadResult(image: image, data: outcome.data, cacheType: outcome.cacheType, url: url,
                                        animatedImage: outcome.animatedImage))
    }
}
