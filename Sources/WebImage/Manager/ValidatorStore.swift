import Foundation

/// Keeps a download's HTTP validators (`ETag`, `Last-Modified`) with the cache entries made from it, so a
/// later `refreshCached` load can ask the server "has it changed?" — in this process or another one.
///
/// The validators are the disk entry's own metadata (``DiskCache/setValidators(_:forKey:)``), written after
/// the entry itself and removed or expired with it. Only ``ImageCache`` (possibly inside a ``CachesManager``)
/// can hold them; other caches revalidate without conditions (a full download). Reads and writes run on the
/// cache's I/O executor, in order with the entry's own writes; a read never waits for that queue on the
/// caller's thread (which may be one of the cooperative pool's few).
enum ValidatorStore {
    /// Reads the validators of the entry for `key` and hands them to `body`: inline when already on the
    /// cache's I/O executor, else queued on it; at once (nil) when the cache cannot hold them.
    static func readValidators(forKey key: String, in cache: any ImageCaching,
                               then body: @escaping @Sendable (HTTPValidators?) -> Void) {
        guard let imageCache = diskBacked(cache) else { return body(nil) }
        run(on: imageCache) { body(imageCache.diskCache.validators(forKey: key)) }
    }

    /// Attaches `validators` to the entry just stored for `key`, then calls `done`; at once when there is
    /// nothing to attach or the cache cannot hold them. Call it from the store's completion, so the entry exists.
    static func attach(_ validators: HTTPValidators?, forKey key: String, in cache: any ImageCaching,
                       then done: @escaping @Sendable () -> Void) {
        guard let validators, let imageCache = diskBacked(cache) else { return done() }
        run(on: imageCache) {
            // A failed write costs only the next revalidation's conditions (a full download instead of a 304).
            _ = try? imageCache.diskCache.setValidators(validators, forKey: key)
            done()
        }
    }

    private static func run(on imageCache: ImageCache, _ work: @escaping @Sendable () -> Void) {
        if imageCache.io.isCurrent { work() } else { imageCache.io.submit(work) }
    }

    /// The `ImageCache` that stores originals: the cache itself, or the highest-priority one of a manager.
    private static func diskBacked(_ cache: any ImageCaching) -> ImageCache? {
        if let imageCache = cache as? ImageCache { return imageCache }
        return (cache as? CachesManager)?.caches.last as? ImageCache
    }
}
