import Foundation

/// Everything one load resolved up front: options, context, caches, loader, keys and decode settings.
struct LoadPlan: Sendable {
    let url: URL
    let options: WebImageOptions
    let context: WebImageContext
    let cache: any ImageCaching
    let originalCache: any ImageCaching
    let loader: any ImageLoading
    let originalKey: String
    /// The key the final image is stored under.
    private(set) var key: String
    /// ``key`` without the transformer's suffix.
    let untransformedKey: String
    let coders: CodersManager

    init(url: URL, options: WebImageOptions, context: WebImageContext, keys: LoadKeys, manager: ImageManager) {
        self.url = url
        self.options = options
        self.context = context
        cache = context.imageCache ?? manager.imageCache
        originalCache = context.originalImageCache ?? cache
        loader = context.imageLoader ?? manager.imageLoader
        originalKey = keys.originalKey
        key = keys.key
        untransformedKey = keys.untransformedKey
        coders = context.coders ?? .shared
    }

    /// This plan storing under ``untransformedKey``: for a final image the transformer was not applied to, so
    /// that an untransformed image never sits under the transformed key.
    var untransformed: LoadPlan {
        var plan = self
        plan.key = untransformedKey
        return plan
    }

    /// Whether the full key differs from the original one (a thumbnail or a transformer is asked for).
    var hasDerivedKey: Bool { key != originalKey }

    /// Whether the caller wants a thumbnail.
    var wantsThumbnail: Bool { context.decodeOptions.thumbnailPixelSize != nil }

    /// How to decode downloads and cached originals: the context's options with the context's scale factor
    /// (else the scale derived from the original key) and the options' flags applied.
    var decodeOptions: ImageDecodeOptions {
        var decode = context.decodeOptions
        if let imageScaleFactor = context.imageScaleFactor { decode.scaleFactor = imageScaleFactor }
        if decode.cacheKey == nil { decode.cacheKey = originalKey }
        if options.contains(.decodeFirstFrameOnly) { decode.firstFrameOnly = true }
        if options.contains(.scaleDownLargeImages), decode.scaleDownLimitBytes == nil {
            decode.scaleDownLimitBytes = context.scaleDownLimitBytes
        }
        return decode
    }

    /// The cache's share of the options.
    var cacheOptions: ImageCacheOptions {
        var cacheOptions: ImageCacheOptions = []
        if options.contains(.queryMemoryData) || needsAnimatedImage { cacheOptions.insert(.queryMemoryData) }
        if options.contains(.queryMemoryDataSync) { cacheOptions.insert(.queryMemoryDataSync) }
        if options.contains(.queryDiskDataSync) { cacheOptions.insert(.queryDiskDataSync) }
        if options.contains(.decodeFirstFrameOnly) { cacheOptions.insert(.decodeFirstFrameOnly) }
        return cacheOptions
    }

    /// Whether the result must come with an ``AnimatedImage`` built from the bytes.
    var needsAnimatedImage: Bool {
        options.contains(.preloadAllFrames) || options.contains(.matchAnimatedImageClass)
    }

    /// The downloader's share of the options.
    var downloaderOptions: WebImageDownloaderOptions {
        let pairs: [(WebImageOptions, WebImageDownloaderOptions)] = [
            (.lowPriority, .lowPriority), (.highPriority, .highPriority), (.progressiveLoad, .progressiveLoad),
            (.refreshCached, .refreshCached), (.continueInBackground, .continueInBackground),
            (.handleCookies, .handleCookies), (.allowInvalidSSLCertificates, .allowInvalidSSLCertificates),
        ]
        var mapped: WebImageDownloaderOptions = []
        for (option, downloader) in pairs where options.contains(option) { mapped.insert(downloader) }
        return mapped
    }

    /// The download request, with the validators of the cached copy when revalidating.
    func downloadRequest(validators: HTTPValidators?) -> ImageDownloadRequest {
        ImageDownloadRequest(url: url, options: downloaderOptions, decodeOptions: decodeOptions,
                             requestModifier: context.requestModifier, responseModifier: context.responseModifier,
                             decryptor: context.decryptor, cachedValidators: validators,
                             totalTimeout: context.totalDownloadTimeout)
    }
}
