import Foundation
import Logging

extension ImageManager {
    /// Loads `url`: from the cache if there, else downloaded, transformed and stored; see ``ImageManager``.
    ///
    /// The steps, in order: an invalid URL fails with 1000; a URL on the failed-URL list fails with 1003
    /// (unless ``WebImageOptions/retryFailed``); the cache is queried for the full key, then for the original
    /// key (a hit there derives the thumbnail or transform without the network); a download starts only
    /// when allowed (not ``WebImageOptions/fromCacheOnly``, no cached image or
    /// ``WebImageOptions/refreshCached``, the delegate agrees, the loader handles the URL); the result is
    /// transformed, stored, and delivered. No download and no image completes with
    /// `(nil, nil, nil, .none, true, url)`.
    ///
    /// Loads of one URL with the same key, options and context started while one is under way wait for its work
    /// (one cache query, download, decode and store), each with its own operation: cancelling one leaves the
    /// others; the work stops when all are cancelled. `refreshCached` loads and contexts with a request or
    /// response modifier, decryptor or cache serializer run alone (the downloader still shares their bytes).
    ///
    /// A memory hit completes synchronously, before this returns (unless the context sets a callback queue).
    /// `completed` has no default so a trailing closure always binds to it, never to `progress`.
    @discardableResult
    public func loadImage(with url: URL?, options: WebImageOptions = [], context: WebImageContext = WebImageContext(),
                          progress: ProgressHandler? = nil,
                          completed: CompletionHandler?) -> ImageCombinedOperation {
        var deliver: (@Sendable (ImageLoadOutcome) -> Void)?
        if let completed {
            deliver = { (outcome: ImageLoadOutcome) in
                completed(outcome.image, outcome.data, outcome.error, outcome.cacheType, outcome.finished, outcome.url)
            }
        }
        return startLoad(url: url, options: options, context: context, progress: progress, deliver: deliver)
    }

    /// ``loadImage(with:options:context:progress:completed:)`` for a URL string; an empty or unparseable
    /// string fails with 1000 invalidURL.
    @discardableResult
    public func loadImage(with string: String?, options: WebImageOptions = [],
                          context: WebImageContext = WebImageContext(), progress: ProgressHandler? = nil,
                          completed: CompletionHandler?) -> ImageCombinedOperation {
        loadImage(with: string.flatMap(URL.init(string:)), options: options, context: context, progress: progress,
                  completed: completed)
    }

    /// Steps 1–4: validate, resolve, answer memory hits on the spot, else start the cache or loader part.
    func startLoad(url: URL?, options: WebImageOptions, context: WebImageContext, progress: ProgressHandler?,
                   deliver: (@Sendable (ImageLoadOutcome) -> Void)?, onEnd: (@Sendable () -> Void)? = nil)
        -> ImageCombinedOperation {
        guard let url, case let urlString = url.absoluteString, !urlString.isEmpty else {
            return failNow(.invalidURL(url?.absoluteString), url: url, queue: context.callbackQueue, deliver, onEnd)
        }
        if let problem = URLValidation.problem(with: url) {
            return failNow(URLValidation.invalid(url, problem), url: url, queue: context.callbackQueue, deliver, onEnd)
        }
        if !options.contains(.retryFailed), failedURLs.contains(urlString) {
            return failNow(.blackListed(url), url: url, queue: context.callbackQueue, deliver, onEnd)
        }
        let settings = currentSettings
        var options = options
        var context = resolve(context, settings: settings)
        if let processor = settings.optionsProcessor { (options, context) = processor.process(url, options, context) }
        let keys = LoadKeys(url: url, urlString: urlString, context: context)
        if let hit = memoryHit(key: keys.key, options: options, context: context) {
            let outcome = ImageLoadOutcome(image: hit, data: nil, error: nil, cacheType: .memory, finished: true, url: url)
            return completeNow(outcome, queue: context.callbackQueue, deliver, onEnd)
        }
        let plan = LoadPlan(url: url, options: options, context: context, keys: keys, manager: self)
        let operation = ImageCombinedOperation(url: url, callbackQueue: context.callbackQueue, progress: progress,
                                               deliver: deliver)
        // Registered first: its end hook (leaving `running`) then runs before the caller's, so a caller told
        // that its load ended never finds the manager still running it.
        register(operation)
        if let onEnd { operation.onEnd(onEnd) }
        // Loads of one key and options started while one runs wait for its work rather than repeat it.
        guard let flightKey = LoadFlightKey(plan) else {
            run(plan, operation)
            return operation
        }
        if let flight = loadFlights.join(flightKey, operation, url: url) { run(plan, flight) }
        return operation
    }

    /// Steps 4–8 for one load, or for a flight of them.
    private func run(_ plan: LoadPlan, _ receiver: any LoadReceiving) {
        if plan.options.contains(.fromLoaderOnly) {
            download(plan, receiver, cached: nil)
        } else {
            queryCache(plan, receiver)
        }
    }

    /// The lean path: the default memory cache answered synchronously, no token, no hop.
    func memoryHit(key: String, options: WebImageOptions, context: WebImageContext) -> Image? {
        let excluded: WebImageOptions = [.fromLoaderOnly, .refreshCached, .queryMemoryData, .decodeFirstFrameOnly,
                                         .preloadAllFrames, .matchAnimatedImageClass]
        guard let memoryCache, context.imageCache == nil, options.isDisjoint(with: excluded),
              context.queryCacheType.includesMemory else { return nil }
        guard let image = memoryCache.image(forKey: key), image.matches(decodeOptions: context.decodeOptions) else {
            return nil
        }
        cacheInstruments?.memoryHits.increment()
        cacheInstruments?.traceMemoryHit(key: key)
        return image
    }

    private func failNow(_ error: WebImageError, url: URL?, queue: DispatchQueue?,
                         _ deliver: (@Sendable (ImageLoadOutcome) -> Void)?,
                         _ onEnd: (@Sendable () -> Void)?) -> ImageCombinedOperation {
        logger.debug("load failed", metadata: ["url": "\(url?.absoluteString ?? "-")", "code": "\(error.code)",
                                               "error": "\(error)"])
        return completeNow(.failure(error, url: url), queue: queue, deliver, onEnd)
    }

    private func completeNow(_ outcome: ImageLoadOutcome, queue: DispatchQueue?,
                             _ deliver: (@Sendable (ImageLoadOutcome) -> Void)?,
                             _ onEnd: (@Sendable () -> Void)?) -> ImageCombinedOperation {
        if let deliver {
            if let queue {
                queue.async {
                    deliver(outcome)
                    onEnd?()
                }
                return ImageCombinedOperation(completedWith: outcome.url)
            }
            deliver(outcome)
        }
        onEnd?()
        return ImageCombinedOperation(completedWith: outcome.url)
    }

    /// Step 4: the full key; on a miss with a derived key, the original key.
    private func queryCache(_ plan: LoadPlan, _ operation: any LoadReceiving) {
        var decode = plan.decodeOptions
        if plan.context.transformer != nil { decode.thumbnailPixelSize = nil }
        decode.cacheKey = plan.key
        let queryContext = ImageCacheQueryContext(decodeOptions: decode, storeCacheType: plan.context.storeCacheType)
        let token = plan.cache.queryImage(forKey: plan.key, options: plan.cacheOptions, context: queryContext,
                                          cacheType: plan.context.queryCacheType) { [self] result in
            guard operation.isRunning else { return }
            if result.image == nil, plan.hasDerivedKey, plan.context.originalQueryCacheType != .none {
                queryOriginalCache(plan, operation)
            } else {
                download(plan, operation, cached: result.image == nil ? nil : result)
            }
        }
        operation.attach(cache: token)
    }

    /// Step 4, second half: an original found in the cache is thumbnailed/transformed without the network.
    private func queryOriginalCache(_ plan: LoadPlan, _ operation: any LoadReceiving) {
        // A thumbnail decoded from the original must never be written back under the original's key.
        let writeBack: ImageCacheType = plan.wantsThumbnail ? .disk : plan.context.originalStoreCacheType
        let queryContext = ImageCacheQueryContext(decodeOptions: plan.decodeOptions, storeCacheType: writeBack)
        var cacheOptions = plan.cacheOptions
        cacheOptions.remove(.queryMemoryData)
        let token = plan.originalCache.queryImage(forKey: plan.originalKey, options: cacheOptions, context: queryContext,
                                                  cacheType: plan.context.originalQueryCacheType) { [self] result in
            guard operation.isRunning else { return }
            guard var original = result.image else {
                download(plan, operation, cached: nil)
                return
            }
            if plan.wantsThumbnail, !original.isThumbnail {
                original = plan.decodeOptions.finish(original, sourceSize: original.pixelSize)
            }
            let derived = LoadedImage(image: original, data: result.data, cacheType: result.cacheType,
                                      originalStored: true)
            finishLoaded(plan, operation, derived)
        }
        operation.attach(cache: token)
    }
}
