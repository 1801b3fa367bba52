import Foundation
import Synchronization

/// Several caches behind one ``ImageCaching`` (SDWebImage's `SDImageCachesManager`), each operation spread
/// over them by a ``Policy``.
///
/// Caches are ordered by priority: the **last added has the highest priority**. Defaults: query and
/// contains `serial` (highest first, stop at the first hit), store `highestOnly`, remove and clear
/// `concurrent`. With no caches every operation answers at once with a miss (or nothing).
///
/// ```swift
/// let caches = CachesManager(caches: [ImageCache.shared, ImageCache(namespace: "fast")])
/// let result = await caches.queryImage(forKey: key)   // "fast" first, then shared
/// ```
public final class CachesManager: ImageCaching {
    /// How one operation uses the caches.
    public enum Policy: Sendable, Hashable {
        /// Only the highest-priority (last added) cache.
        case highestOnly
        /// Only the lowest-priority (first added) cache.
        case lowestOnly
        /// All at once; for query/contains the first memory hit answers at once, a disk hit once no other
        /// cache can still answer from memory; otherwise the answer comes once all have finished.
        case concurrent
        /// One after another from the highest priority; query/contains stop at the first hit.
        case serial
    }

    /// The policy of each operation.
    public struct Policies: Sendable, Hashable {
        /// Default ``Policy/serial``.
        public var query: Policy
        /// Default ``Policy/highestOnly``.
        public var store: Policy
        /// Default ``Policy/concurrent``.
        public var remove: Policy
        /// Default ``Policy/serial``.
        public var contains: Policy
        /// Default ``Policy/concurrent``.
        public var clear: Policy

        public init(query: Policy = .serial, store: Policy = .highestOnly, remove: Policy = .concurrent,
                    contains: Policy = .serial, clear: Policy = .concurrent) {
            self.query = query
            self.store = store
            self.remove = remove
            self.contains = contains
            self.clear = clear
        }
    }

    /// The process-wide manager, holding ``ImageCache/shared``.
    public static let shared = CachesManager(caches: [ImageCache.shared])

    private let state: Mutex<(caches: [any ImageCaching], policies: Policies)>

    /// A manager over `caches`, lowest priority first.
    public init(caches: [any ImageCaching] = [], policies: Policies = Policies()) {
        state = Mutex((caches, policies))
    }

    /// The caches, lowest priority first.
    public var caches: [any ImageCaching] { state.withLock { $0.caches } }

    /// The operations' policies; changes apply to operations started afterwards.
    public var policies: Policies {
        get { state.withLock { $0.policies } }
        set { state.withLock { $0.policies = newValue } }
    }

    /// Adds a cache with the highest priority.
    public func addCache(_ cache: any ImageCaching) {
        state.withLock { $0.caches.append(cache) }
    }

    /// Removes a cache (by identity).
    public func removeCache(_ cache: any ImageCaching) {
        state.withLock { $0.caches.removeAll { $0 === cache } }
    }

    /// Queries the caches by ``Policies/query``; answers the first hit, else `.miss`.
    @discardableResult
    public func queryImage(forKey key: String?, options: ImageCacheOptions, context: ImageCacheQueryContext,
                           cacheType: ImageCacheType,
                           completion: @escaping @Sendable (ImageCacheQueryResult) -> Void) -> CacheToken {
        let plan = plan(\.query)
        return CacheFanOut(caches: plan.caches, policy: plan.policy, empty: ImageCacheQueryResult.miss,
                           rank: { $0.image == nil ? 0 : $0.cacheType.hitRank },
                           merge: { first, _ in first }).run(completion) { cache, done in
            cache.queryImage(forKey: key, options: options, context: context, cacheType: cacheType, completion: done)
        }
    }

    /// Stores in the caches by ``Policies/store``; answers once all asked caches have, with the first error.
    @discardableResult
    public func storeImage(_ image: Image?, data: Data?, forKey key: String?, cacheType: ImageCacheType,
                           completion: (@Sendable (WebImageError?) -> Void)?) -> CacheToken {
        let plan = plan(\.store)
        return CacheFanOut<WebImageError?>(caches: plan.caches, policy: plan.policy, empty: nil, rank: { _ in 0 },
                                           merge: { $0 ?? $1 }).run(completion) { cache, done in
            cache.storeImage(image, data: data, forKey: key, cacheType: cacheType, completion: done)
        }
    }

    /// Removes from the caches by ``Policies/remove``; answers once all asked caches have.
    @discardableResult
    public func removeImage(forKey key: String?, cacheType: ImageCacheType,
                            completion: (@Sendable () -> Void)?) -> CacheToken {
        let plan = plan(\.remove)
        return CacheFanOut(caches: plan.caches, policy: plan.policy, empty: (), rank: { _ in 0 },
                           merge: { _, _ in () }).run(completion.map { done in { _ in done() } }) { cache, done in
            cache.removeImage(forKey: key, cacheType: cacheType) { done(()) }
        }
    }

    /// Asks the caches by ``Policies/contains``; answers the first cache type found, else `.none`.
    @discardableResult
    public func containsImage(forKey key: String?, cacheType: ImageCacheType,
                              completion: @escaping @Sendable (ImageCacheType) -> Void) -> CacheToken {
        let plan = plan(\.contains)
        return CacheFanOut(caches: plan.caches, policy: plan.policy, empty: ImageCacheType.none,
                           rank: { $0.hitRank },
                           merge: { first, _ in first }).run(completion) { cache, done in
            cache.containsImage(forKey: key, cacheType: cacheType, completion: done)
        }
    }

    /// Clears the caches by ``Policies/clear``; answers once all asked caches have.
    @discardableResult
    public func clear(cacheType: ImageCacheType, completion: (@Sendable () -> Void)?) -> CacheToken {
        let plan = plan(\.clear)
        return CacheFanOut(caches: plan.caches, policy: plan.policy, empty: (), rank: { _ in 0 },
                           merge: { _, _ in () }).run(completion.map { done in { _ in done() } }) { cache, done in
            cache.clear(cacheType: cacheType) { done(()) }
        }
    }

    private func plan(_ policy: KeyPath<Policies, Policy>) -> (caches: [any ImageCaching], policy: Policy) {
        state.withLock { ($0.caches, $0.policies[keyPath: policy]) }
    }
}
