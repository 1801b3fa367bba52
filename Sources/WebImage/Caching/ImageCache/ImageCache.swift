import Dispatch
import Foundation
import Synchronization

/// The image cache: a memory LRU of decoded images over a crash-safe disk cache of their bytes, with the
/// coders in between (SDWebImage's `SDImageCache`).
///
/// Memory is read and written synchronously; disk reads, writes and encoding run on the cache's own serial I/O
/// queue, in submission order, and disk hits decode on a concurrent queue, never on Swift's cooperative pool.
/// Every operation has a callback form returning a ``CacheToken`` and an `async` form. Callback completions
/// run on the caller's thread when the answer is immediate (memory hits, nil keys), else on the I/O or decode
/// queue: keep them short.
///
/// ```swift
/// let cache = ImageCache(namespace: "avatars")
/// cache.storeImage(image, data: bytes, forKey: url.absoluteString)
/// let result = await cache.queryImage(forKey: url.absoluteString)
/// ```
public final class ImageCache: ImageCaching {
    /// The process-wide cache, namespace "default" under ``DiskCache/defaultBaseDirectory``.
    public static let shared = ImageCache(namespace: "default")

    /// The settings it was created with.
    public let configuration: Configuration
    /// The decoded images, by key.
    public let memoryCache: MemoryCache
    /// The original (or encoded) bytes, by key.
    public let diskCache: DiskCache
    /// Decodes disk hits and encodes images stored without their bytes.
    public let coders: CodersManager
    let io: CacheIOExecutor
    /// Where disk hits decode: concurrent, so they use every core (the read before each stays on `io`).
    let decoding: DispatchQueue
    /// Disk hits read but not yet decoded, at most two per core.
    let decodeSlots = DispatchSemaphore(value: 2 * max(1, ProcessInfo.processInfo.activeProcessorCount))
    /// Disk queries in flight, so concurrent queries of one entry read and decode it once.
    let inflight = Mutex<[DiskQuery: [DiskQueryWaiter]]>([:])
    /// The logger and metrics of ``Configuration/logger`` and ``Configuration/metricsFactory``.
    let instruments: CacheInstruments
    /// Runs ``DiskCache/removeExpiredData()`` every ``Configuration/expirationInterval``; cancelled on deinit.
    private let expiryTimer: Mutex<(any DispatchSourceTimer)?>

    /// A cache whose disk part lives in `<directory>/<namespace>` (`directory` defaulting to
    /// ``DiskCache/defaultBaseDirectory``), decoding with `coders` (default `CodersManager.shared`).
    public init(namespace: String, directory: URL? = nil, configuration: Configuration = Configuration(),
                coders: CodersManager = .shared) {
        self.configuration = configuration
        self.coders = coders
        instruments = CacheInstruments(logger: configuration.logger, factory: configuration.metricsFactory)
        memoryCache = MemoryCache(configuration: configuration.instrumentedMemory)
        let base = directory ?? DiskCache.defaultBaseDirectory
        diskCache = DiskCache(directory: base.appendingPathComponent(namespace), configuration: configuration.instrumentedDisk)
        io = CacheIOExecutor(label: "SwiftWebImage.ImageCache.\(namespace)")
        decoding = DispatchQueue(label: "SwiftWebImage.ImageCache.\(namespace).decode", qos: .utility,
                                 attributes: .concurrent)
        var timer: (any DispatchSourceTimer)?
        if let interval = configuration.expirationInterval, interval > 0 {
            let disk = diskCache
            timer = io.makeTimer(interval: interval) { disk.removeExpiredData() }
        }
        expiryTimer = Mutex(timer)
    }

    deinit {
        expiryTimer.withLock { $0?.cancel() }
    }

    /// The directory holding the disk entries.
    public var diskCachePath: String { diskCache.directoryPath }

    /// The file the disk entry for `key` is written to.
    public func cachePath(forKey key: String) -> String { diskCache.path(forKey: key) }

    /// The memory cache's image for `key`, synchronously; nil on a miss.
    public func imageFromMemoryCache(forKey key: String) -> Image? { memoryCache.image(forKey: key) }

    /// Runs `work` on the I/O queue unless cancelled first; answers through a token.
    func ioOperation<T: Sendable>(cancelled: T, completion: (@Sendable (T) -> Void)?,
                                  _ work: @escaping @Sendable () -> T) -> CacheToken {
        let token = CacheToken { completion?(cancelled) }
        io.submit {
            guard !token.isFinished else { return }
            let value = work()
            if token.complete() { completion?(value) }
        }
        return token
    }

    /// A `()`-taking form of a no-argument completion, for the generic helpers.
    func unit(_ completion: (@Sendable () -> Void)?) -> (@Sendable (()) -> Void)? {
        completion.map { done in { @Sendable _ in done() } }
    }

    /// Answers now: `completion` runs on the caller's thread before this returns.
    func answerNow<T>(_ value: T, _ completion: ((T) -> Void)?) -> CacheToken {
        completion?(value)
        return .completed()
    }
}
