import Dispatch
import Foundation
import Logging
import Metrics
import Synchronization

/// The load pipeline users call (SDWebImage's `SDWebImageManager`): failed-URL list → cache key → cache
/// (full key, then the original key) → download → transform → store → completion.
///
/// One manager ties a cache and a loader together; the context can swap either per load. Manager-level
/// ``transformer``, ``cacheKeyFilter`` and ``cacheSerializer`` apply where the context has none, then the
/// ``optionsProcessor`` may rewrite options and context. Completions run where the context's
/// ``WebImageContext/callbackQueue`` says (default: no hop — see there).
///
/// ```swift
/// let manager = ImageManager(cache: ImageCache(namespace: "feed"), loader: ImageDownloader.shared)
/// manager.loadImage(with: "https://example.com/a.jpg") { image, data, error, cacheType, finished, url in … }
/// let result = try await manager.image(for: URL(string: "https://example.com/a.jpg"))
/// ```
public final class ImageManager: Sendable {
    /// (received, expected, url); expected is −1 while unknown.
    public typealias ProgressHandler = @Sendable (_ received: Int, _ expected: Int, _ url: URL) -> Void
    /// (image, data, error, cacheType, finished, url): `finished` is false only for progressive partial images.
    public typealias CompletionHandler = @Sendable (_ image: Image?, _ data: Data?, _ error: WebImageError?,
                                                     _ cacheType: ImageCacheType, _ finished: Bool,
                                                     _ url: URL?) -> Void

    /// The process-wide manager over ``ImageCache/shared`` and ``LoadersManager/shared``.
    public static let shared = ImageManager(cache: ImageCache.shared, loader: LoadersManager.shared)

    /// The default cache (the context's ``WebImageContext/imageCache`` overrides it).
    public let imageCache: any ImageCaching
    /// The default loader (the context's ``WebImageContext/imageLoader`` overrides it).
    public let imageLoader: any ImageLoading
    /// The memory cache of ``imageCache`` when it is an ``ImageCache``: queried synchronously on the hot path.
    let memoryCache: MemoryCache?
    let failedURLs = FailedURLList()
    /// Where the manager logs failed loads (`debug`) and URLs it blocks (`info`).
    let logger: Logger
    /// Encoding final images for the disk cache (thumbnails, transformed images).
    let coding: CodingTimers
    /// The metrics of ``imageCache`` when it is an ``ImageCache``: the synchronous memory lookup counts its hits.
    let cacheInstruments: CacheInstruments?
    let running = Mutex<[ObjectIdentifier: ImageCombinedOperation]>([:])
    /// Loads under way shared by the loads of the same key and options (``LoadFlight``).
    let loadFlights = LoadFlights()
    private let settings = Mutex(Settings())
    /// Where transformers run: off the cache's I/O queue and the downloader's delivery queue.
    let transformQueue = DispatchQueue(label: "SwiftWebImage.ImageManager.transform", qos: .userInitiated,
                                       attributes: .concurrent)

    struct Settings {
        var transformer: (any ImageTransforming)?
        var cacheKeyFilter: ImageCacheKeyFilter?
        var cacheSerializer: ImageCacheSerializer?
        var optionsProcessor: ImageOptionsProcessor?
        weak var delegate: (any ImageManagerDelegate)?
    }

    /// A manager over `cache` and `loader`, logging to `logger` (default
    /// `Logger(label: "SwiftWebImage.ImageManager")`) and timing the encodes it does for the cache with metrics
    /// made once from `metricsFactory` (default `MetricsSystem.factory`); see ``WebImageMetrics``.
    public init(cache: any ImageCaching, loader: any ImageLoading,
                logger: Logger = Logger(label: "SwiftWebImage.ImageManager"),
                metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        imageCache = cache
        imageLoader = loader
        memoryCache = (cache as? ImageCache)?.memoryCache
        cacheInstruments = (cache as? ImageCache)?.instruments
        self.logger = logger
        coding = CodingTimers(factory: metricsFactory)
    }

    /// Applied to every load whose context has no transformer. Default nil.
    public var transformer: (any ImageTransforming)? {
        get { settings.withLock { $0.transformer } }
        set { settings.withLock { $0.transformer = newValue } }
    }

    /// Maps URLs to cache keys for loads whose context has no filter. Default nil: the absolute string.
    public var cacheKeyFilter: ImageCacheKeyFilter? {
        get { settings.withLock { $0.cacheKeyFilter } }
        set { settings.withLock { $0.cacheKeyFilter = newValue } }
    }

    /// Chooses stored bytes for loads whose context has no serializer. Default nil.
    public var cacheSerializer: ImageCacheSerializer? {
        get { settings.withLock { $0.cacheSerializer } }
        set { settings.withLock { $0.cacheSerializer = newValue } }
    }

    /// Rewrites every load's options and context, after the manager-level defaults are applied. Default nil.
    public var optionsProcessor: ImageOptionsProcessor? {
        get { settings.withLock { $0.optionsProcessor } }
        set { settings.withLock { $0.optionsProcessor = newValue } }
    }

    /// Vetoes downloads and decides blocking; held weakly. Default nil.
    public var delegate: (any ImageManagerDelegate)? {
        get { settings.withLock { $0.delegate } }
        set { settings.withLock { $0.delegate = newValue } }
    }

    var currentSettings: Settings { settings.withLock { $0 } }

    /// Whether any load is under way.
    public var isRunning: Bool { running.withLock { !$0.isEmpty } }

    /// Cancels every load under way; each completes with `cancelled`.
    public func cancelAll() {
        let operations = running.withLock { Array($0.values) }
        for operation in operations { operation.cancel() }
    }

    /// Takes `url` off the failed-URL list.
    public func removeFailedURL(_ url: URL) {
        failedURLs.remove(url.absoluteString)
    }

    /// Empties the failed-URL list.
    public func removeAllFailedURLs() {
        failedURLs.removeAll()
    }

    /// Whether `url` is on the failed-URL list.
    public func isFailedURL(_ url: URL) -> Bool {
        failedURLs.contains(url.absoluteString)
    }

    /// The key the final image of `url` is cached under with `context` (after the manager-level defaults):
    /// the filtered key (or absolute string), plus the thumbnail and transformer suffixes.
    public func cacheKey(for url: URL?, context: WebImageContext = WebImageContext()) -> String? {
        guard let url else { return nil }
        let resolved = resolve(context, settings: currentSettings)
        return LoadKeys(url: url, urlString: url.absoluteString, context: resolved).key
    }

    /// The context with the manager-level transformer, filter and serializer filled in where it has none.
    func resolve(_ context: WebImageContext, settings: Settings) -> WebImageContext {
        guard settings.transformer != nil || settings.cacheKeyFilter != nil || settings.cacheSerializer != nil else {
            return context
        }
        var context = context
        if context.transformer == nil { context.transformer = settings.transformer }
        if context.cacheKeyFilter == nil { context.cacheKeyFilter = settings.cacheKeyFilter }
        if context.cacheSerializer == nil { context.cacheSerializer = settings.cacheSerializer }
        return context
    }

    func register(_ operation: ImageCombinedOperation) {
        let id = ObjectIdentifier(operation)
        running.withLock { if operation.isRunning { $0[id] = operation } }
        operation.onEnd { [weak self] in _ = self?.running.withLock { $0.removeValue(forKey: id) } }
    }
}

/// The original key (filter or absolute string) and the full key (plus thumbnail and transformer suffixes).
struct LoadKeys {
    let originalKey: String
    let key: String
    /// The full key without the transformer's suffix: where an image the transformer is not applied to (a
    /// vector one without `transformVectorImage`) is stored.
    let untransformedKey: String

    init(url: URL, urlString: String, context: WebImageContext) {
        originalKey = context.cacheKeyFilter?.key(url) ?? urlString
        var key = originalKey
        if let size = context.decodeOptions.thumbnailPixelSize {
            key = ImageTransformers.thumbnailedKey(key, pixelSize: size,
                                                   preserveAspectRatio: context.decodeOptions.preserveAspectRatio)
        }
        untransformedKey = key
        if let transformer = context.transformer {
            key = ImageTransformers.transformedKey(key, transformerKey: transformer.transformerKey)
        }
        self.key = key
    }
}
