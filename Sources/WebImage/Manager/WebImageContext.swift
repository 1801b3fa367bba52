import Dispatch
import Foundation

/// Per-load settings beside the options (SDWebImage's `SDWebImageContext`), as a typed value.
///
/// Every property is optional or has a default, so `WebImageContext()` means "use the manager's settings".
/// Context values win over the manager's: its `transformer`, `cacheKeyFilter` and `cacheSerializer` apply
/// only where the context has none.
///
/// ```swift
/// var context = WebImageContext()
/// context.decodeOptions.thumbnailPixelSize = PixelSize(width: 256, height: 256)
/// context.transformer = ImageTransformers.RoundCorner(radius: 8)
/// manager.loadImage(with: url, context: context) { image, _, error, _, _, _ in … }
/// ```
public struct WebImageContext: Sendable {
    /// Binding: the key under which a target registers its load. Default nil: the target's type name.
    public var operationKey: String?
    /// Binding and prefetcher: the manager that runs the load. Default nil: ``ImageManager/shared``.
    public var customManager: ImageManager?
    /// Where completions (and progress) run. Default nil: no hop — they run on the thread that finished the
    /// work (a cache I/O queue, the downloader's delivery queue, or the caller's own thread for memory hits),
    /// since a Linux server has no main run loop to hop to.
    public var callbackQueue: DispatchQueue?
    /// The cache to query and store into. Default nil: the manager's cache.
    public var imageCache: (any ImageCaching)?
    /// The loader to download with. Default nil: the manager's loader.
    public var imageLoader: (any ImageLoading)?
    /// Coders for decoding cached originals into thumbnails or animated images. Default nil: `CodersManager.shared`.
    public var coders: CodersManager?
    /// Transforms the loaded image; its key is appended to the cache key. Default nil: the manager's.
    public var transformer: (any ImageTransforming)?
    /// How to decode (scale factor, thumbnail pixel size, aspect ratio, type hint, scale-down limit…).
    /// Default `ImageDecodeOptions()`: full size; the manager fills in the cache key and the options' flags.
    public var decodeOptions: ImageDecodeOptions
    /// The scale stamped on decoded images (SDWebImage's `imageScaleFactor`), kept apart from
    /// ``decodeOptions`` and overriding its ``ImageDecodeOptions/scaleFactor`` when set. Default nil.
    public var imageScaleFactor: Double?
    /// How final images without original bytes (transformed, thumbnails) are encoded for the disk cache.
    /// Default `ImageEncodeOptions()` (quality 1). An unset ``ImageEncodeOptions/effort`` is read as
    /// ``ImageEncodeEffort/fastest`` here: these bytes are only read back by the cache; set it to
    /// ``ImageEncodeEffort/balanced`` for smaller files at several times the CPU.
    public var encodeOptions: ImageEncodeOptions
    /// The caches queried for the full key. Default `.all`.
    public var queryCacheType: ImageCacheType
    /// The caches the final image is stored in. Default `.all`.
    public var storeCacheType: ImageCacheType
    /// The caches queried for the original key when the full key (thumbnail or transformer) misses. Default `.disk`.
    public var originalQueryCacheType: ImageCacheType
    /// The caches the original bytes are stored in when the full key differs. Default `.disk`.
    public var originalStoreCacheType: ImageCacheType
    /// A separate cache for originals. Default nil: the same cache as the final image.
    public var originalImageCache: (any ImageCaching)?
    /// Rewrites the outgoing request (nil cancels it with 2000). Default nil.
    public var requestModifier: (@Sendable (TransportRequest) -> TransportRequest?)?
    /// Rewrites the response head (nil fails with 2003). Default nil.
    public var responseModifier: (@Sendable (TransportResponseHead) -> TransportResponseHead?)?
    /// Turns downloaded bytes into image bytes (nil fails with 1001). Default nil.
    public var decryptor: (@Sendable (Data, TransportResponseHead?) -> Data?)?
    /// Maps a URL to its cache key. Default nil: the manager's filter, else the URL's absolute string.
    public var cacheKeyFilter: ImageCacheKeyFilter?
    /// Chooses the bytes written to disk for the final image. Default nil: the manager's serializer, else
    /// the original bytes (or the encoded image when it was transformed or thumbnailed).
    public var cacheSerializer: ImageCacheSerializer?
    /// The scale-down limit used with ``WebImageOptions/scaleDownLargeImages`` when ``decodeOptions`` sets none.
    /// Default 60 MB of RGBA8 pixels (SDWebImage's default).
    public var scaleDownLimitBytes: Int
    /// The longest the download may take in all (``ImageDownloadRequest/totalTimeout``). Default nil: the
    /// loader's own (``ImageDownloader/Configuration/totalDownloadTimeout``).
    public var totalDownloadTimeout: Duration?

    public init(operationKey: String? = nil, customManager: ImageManager? = nil, callbackQueue: DispatchQueue? = nil,
                imageCache: (any ImageCaching)? = nil, imageLoader: (any ImageLoading)? = nil,
                coders: CodersManager? = nil, transformer: (any ImageTransforming)? = nil,
                decodeOptions: ImageDecodeOptions = ImageDecodeOptions(), imageScaleFactor: Double? = nil,
                encodeOptions: ImageEncodeOptions = ImageEncodeOptions(),
                queryCacheType: ImageCacheType = .all, storeCacheType: ImageCacheType = .all,
                originalQueryCacheType: ImageCacheType = .disk, originalStoreCacheType: ImageCacheType = .disk,
                originalImageCache: (any ImageCaching)? = nil,
                requestModifier: (@Sendable (TransportRequest) -> TransportRequest?)? = nil,
                responseModifier: (@Sendable (TransportResponseHead) -> TransportResponseHead?)? = nil,
                decryptor: (@Sendable (Data, TransportResponseHead?) -> Data?)? = nil,
                cacheKeyFilter: ImageCacheKeyFilter? = nil, cacheSerializer: ImageCacheSerializer? = nil,
                scaleDownLimitBytes: Int = 60 << 20, totalDownloadTimeout: Duration? = nil) {
        self.operationKey = operationKey
        self.customManager = customManager
        self.callbackQueue = callbackQueue
        self.imageCache = imageCache
        self.imageLoader = imageLoader
        self.coders = coders
        self.transformer = transformer
        self.decodeOptions = decodeOptions
        self.imageScaleFactor = imageScaleFactor
        self.encodeOptions = encodeOptions
        self.queryCacheType = queryCacheType
        self.storeCacheType = storeCacheType
        self.originalQueryCacheType = originalQueryCacheType
        self.originalStoreCacheType = originalStoreCacheType
        self.originalImageCache = originalImageCache
        self.requestModifier = requestModifier
        self.responseModifier = responseModifier
        self.decryptor = decryptor
        self.cacheKeyFilter = cacheKeyFilter
        self.cacheSerializer = cacheSerializer
        self.scaleDownLimitBytes = scaleDownLimitBytes
        self.totalDownloadTimeout = totalDownloadTimeout
    }
}

/// Maps a URL to a cache key (SDWebImage's `SDWebImageCacheKeyFilter`); nil falls back to the absolute string.
///
/// ```swift
/// let dropQuery = ImageCacheKeyFilter { url in url.absoluteString.components(separatedBy: "?")[0] }
/// ```
public struct ImageCacheKeyFilter: Sendable {
    public let key: @Sendable (URL) -> String?
    public init(_ key: @escaping @Sendable (URL) -> String?) { self.key = key }
}

/// Chooses the bytes stored on disk for a final image (SDWebImage's `SDWebImageCacheSerializer`).
///
/// Gets the image, the original bytes (nil when there are none or they do not describe the image, as for a
/// transformed one) and the URL; returning nil keeps the default (the original bytes, else the image encoded
/// with the context's encode options).
public struct ImageCacheSerializer: Sendable {
    public let data: @Sendable (Image, Data?, URL) -> Data?
    public init(_ data: @escaping @Sendable (Image, Data?, URL) -> Data?) { self.data = data }
}

/// Rewrites each load's options and context before it starts (SDWebImage's `SDWebImageOptionsProcessor`).
public struct ImageOptionsProcessor: Sendable {
    public let process: @Sendable (URL, WebImageOptions, WebImageContext) -> (WebImageOptions, WebImageContext)
    public init(_ process: @escaping @Sendable (URL, WebImageOptions, WebImageContext) -> (WebImageOptions, WebImageContext)) {
        self.process = process
    }
}
