import Foundation
import Logging

extension ImageManager {
    /// Step 5: download when allowed; with `refreshCached`, deliver the cached image first and revalidate.
    func download(_ plan: LoadPlan, _ operation: any LoadReceiving, cached: ImageCacheQueryResult?) {
        let options = plan.options
        let mayDownload = !options.contains(.fromCacheOnly)
            && (cached == nil || options.contains(.refreshCached))
            && (delegate?.shouldDownloadImage(for: plan.url) ?? true)
            && plan.loader.canRequestImage(for: plan.url)
        guard mayDownload else {
            if let cached, let image = cached.image {
                finishLoaded(plan, operation, LoadedImage(image: image, data: cached.data, cacheType: cached.cacheType,
                                                          originalStored: true, isFromFullKey: true))
            } else {
                operation.finish(ImageLoadOutcome(image: nil, data: nil, error: nil, cacheType: .none, finished: true,
                                                  url: plan.url))
            }
            return
        }
        guard let cached, let image = cached.image else {
            // Another load of the same key may have stored it while this one's disk query waited its turn on the
            // I/O queue: a duplicate nearby then shares the first download's result instead of starting another.
            if let stored = memoryHit(key: plan.key, options: options, context: plan.context) {
                finishLoaded(plan, operation, LoadedImage(image: stored, data: nil, cacheType: .memory, originalStored: true,
                                                          isFromFullKey: true))
                return
            }
            startDownload(plan, operation, validators: nil, hasCachedImage: false)
            return
        }
        operation.deliverIntermediate(ImageLoadOutcome(image: image, data: cached.data, error: nil,
                                                       cacheType: cached.cacheType, finished: true, url: plan.url))
        // The validators of the entry being revalidated: the one the cached image came from.
        ValidatorStore.readValidators(forKey: plan.key, in: plan.cache) { [self] validators in
            guard operation.isRunning else { return }
            startDownload(plan, operation, validators: validators, hasCachedImage: true)
        }
    }

    /// Step 5, the request itself (conditional when revalidating a cached image with its validators).
    private func startDownload(_ plan: LoadPlan, _ operation: any LoadReceiving, validators: HTTPValidators?,
                               hasCachedImage: Bool) {
        let options = plan.options
        let token = plan.loader.requestImage(
            plan.downloadRequest(validators: validators),
            progress: { received, expected in operation.reportProgress(received: received, expected: expected) },
            partialImage: { partial in
                operation.deliverIntermediate(ImageLoadOutcome(image: partial, data: nil, error: nil, cacheType: .none,
                                                               finished: false, url: plan.url))
            },
            completion: { [self] result in
                switch result {
                case .success(let download):
                    if options.contains(.retryFailed) { failedURLs.remove(plan.url.absoluteString) }
                    finishLoaded(plan, operation, LoadedImage(image: download.image, data: download.data,
                                                              cacheType: .none, originalStored: false,
                                                              validators: download.validators))
                case .failure(.cacheNotModified) where hasCachedImage:
                    operation.finishSilently()
                case .failure(let error):
                    fail(plan, operation, error)
                }
            })
        operation.attach(loader: token)
    }

    /// Step 6: report the error; block the URL when the delegate (or the built-in rule) says so.
    private func fail(_ plan: LoadPlan, _ operation: any LoadReceiving, _ error: WebImageError) {
        if case .cancelled = error {
            operation.cancel()
            return
        }
        let shouldBlock: Bool
        if let delegate {
            shouldBlock = delegate.shouldBlockFailedURL(plan.url, error: error)
        } else {
            shouldBlock = error.isPermanentLoadFailure
        }
        logger.debug("load failed", metadata: ["url": "\(plan.url.absoluteString)", "code": "\(error.code)",
                                               "error": "\(error)"])
        if shouldBlock {
            failedURLs.insert(plan.url.absoluteString)
            logger.info("URL blocked after a permanent failure: later loads fail with 1003 until retried",
                        metadata: ["url": "\(plan.url.absoluteString)", "code": "\(error.code)"])
        }
        operation.finish(.failure(error, url: plan.url))
    }
}
