import Dispatch
import Foundation
import Logging
import Metrics
import Synchronization

/// Warms the cache with many URLs at low priority through its own manager (SDWebImage's `SDWebImagePrefetcher`).
///
/// Each ``prefetch(_:progress:completed:)`` call is a batch with its own ``PrefetchToken``; at most
/// ``maxConcurrentPrefetchCount`` loads of a batch run at once. A batch always completes, exactly once, with
/// (finished, skipped): finished counts every URL of the batch once it is dealt with, skipped those that gave
/// no image (failed, cancelled, or never started because the batch was cancelled). An empty batch completes
/// at once with (0, 0).
///
/// ```swift
/// let prefetcher = ImagePrefetcher()
/// prefetcher.prefetch(urls, progress: { done, total in … }) { finished, skipped in … }
/// ```
public final class ImagePrefetcher: Sendable {
    /// (finished, total) after each URL of the batch.
    public typealias ProgressHandler = @Sendable (_ finished: Int, _ total: Int) -> Void
    /// (finished, skipped) once the batch is over.
    public typealias CompletionHandler = @Sendable (_ finished: Int, _ skipped: Int) -> Void

    /// The process-wide prefetcher, with a manager of its own over the shared cache and loaders.
    public static let shared = ImagePrefetcher()

    /// The manager the loads run through.
    public let manager: ImageManager
    /// Batches logged at `debug`; URLs counted as finished and skipped.
    let instruments: PrefetchInstruments
    private let settings: Mutex<Settings>
    private let batches = Mutex<[ObjectIdentifier: PrefetchToken]>([:])

    struct Settings {
        var maxConcurrentPrefetchCount = 3
        var options: WebImageOptions = .lowPriority
        var context = WebImageContext()
        var callbackQueue: DispatchQueue?
        weak var delegate: (any ImagePrefetcherDelegate)?
    }

    /// A prefetcher over `manager` (default a new manager over ``ImageCache/shared`` and
    /// ``LoadersManager/shared``), logging batches to `logger` (default
    /// `Logger(label: "SwiftWebImage.ImagePrefetcher")`) and counting URLs with metrics made once from
    /// `metricsFactory` (default `MetricsSystem.factory`); see ``WebImageMetrics``.
    public init(manager: ImageManager = ImageManager(cache: ImageCache.shared, loader: LoadersManager.shared),
                logger: Logger = Logger(label: "SwiftWebImage.ImagePrefetcher"),
                metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        self.manager = manager
        instruments = PrefetchInstruments(logger: logger, factory: metricsFactory)
        settings = Mutex(Settings())
    }

    /// How many loads of one batch run at once. Default 3 (values below 1 mean 1).
    public var maxConcurrentPrefetchCount: Int {
        get { settings.withLock { $0.maxConcurrentPrefetchCount } }
        set { settings.withLock { $0.maxConcurrentPrefetchCount = newValue } }
    }

    /// The options of every load. Default ``WebImageOptions/lowPriority``.
    public var options: WebImageOptions {
        get { settings.withLock { $0.options } }
        set { settings.withLock { $0.options = newValue } }
    }

    /// The context of every load. Default `WebImageContext()`.
    public var context: WebImageContext {
        get { settings.withLock { $0.context } }
        set { settings.withLock { $0.context = newValue } }
    }

    /// Where the progress and completion blocks and the delegate run. Default nil: on the thread that
    /// finished the load (or the caller's, for an empty or cancelled batch).
    public var callbackQueue: DispatchQueue? {
        get { settings.withLock { $0.callbackQueue } }
        set { settings.withLock { $0.callbackQueue = newValue } }
    }

    /// Told about each URL and each finished batch, beside the blocks; held weakly. Default nil.
    public var delegate: (any ImagePrefetcherDelegate)? {
        get { settings.withLock { $0.delegate } }
        set { settings.withLock { $0.delegate = newValue } }
    }

    /// Starts a batch; the token cancels it alone.
    ///
    /// `completed` has no default so that a trailing closure is always the completion, as in SDWebImage's
    /// Swift usage: `prefetch(urls) { finished, skipped in … }`. Progress is given by label.
    @discardableResult
    public func prefetch(_ urls: [URL], progress: ProgressHandler? = nil,
                         completed: CompletionHandler?) -> PrefetchToken {
        startBatch(urls.map { Optional($0) }, progress: progress, completed: completed)
    }

    /// Starts a batch without blocks (the delegate, if any, is still told).
    @discardableResult
    public func prefetch(_ urls: [URL]) -> PrefetchToken {
        startBatch(urls.map { Optional($0) }, progress: nil, completed: nil)
    }

    /// ``prefetch(_:progress:completed:)`` for URL strings; unparseable ones are skipped (counted as such).
    @discardableResult
    public func prefetch(strings: [String], progress: ProgressHandler? = nil,
                         completed: CompletionHandler?) -> PrefetchToken {
        startBatch(strings.map { URL(string: $0) }, progress: progress, completed: completed)
    }

    /// ``prefetch(_:)`` for URL strings.
    @discardableResult
    public func prefetch(strings: [String]) -> PrefetchToken {
        startBatch(strings.map { URL(string: $0) }, progress: nil, completed: nil)
    }

    private func startBatch(_ urls: [URL?], progress: ProgressHandler?, completed: CompletionHandler?) -> PrefetchToken {
        let settings = settings.withLock { $0 }
        let token = PrefetchToken(urls: urls, prefetcher: self, settings: settings, progress: progress,
                                  completed: completed)
        let id = ObjectIdentifier(token)
        batches.withLock { $0[id] = token }
        instruments.logger.debug("prefetch batch started", metadata: ["urls": "\(urls.count)"])
        token.onFinish { [weak self] in _ = self?.batches.withLock { $0.removeValue(forKey: id) } }
        token.start()
        return token
    }

    /// Cancels every batch; each completes with its remaining URLs skipped.
    public func cancelPrefetching() {
        let tokens = batches.withLock { Array($0.values) }
        for token in tokens { token.cancel() }
    }
}

/// Mirrors the prefetcher's blocks (SDWebImage's `SDWebImagePrefetcherDelegate`); both methods default to nothing.
public protocol ImagePrefetcherDelegate: AnyObject, Sendable {
    /// One URL was dealt with (`image` nil when it was skipped).
    func prefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, image: Image?, finished: Int, total: Int)
    /// A batch is over.
    func prefetcher(_ prefetcher: ImagePrefetcher, didFinishWithTotal total: Int, skipped: Int)
}

extension ImagePrefetcherDelegate {
    public func prefetcher(_ prefetcher: ImagePrefetcher, didPrefetch url: URL, image: Image?, finished: Int,
                           total: Int) {}
    public func prefetcher(_ prefetcher: ImagePrefetcher, didFinishWithTotal total: Int, skipped: Int) {}
}
