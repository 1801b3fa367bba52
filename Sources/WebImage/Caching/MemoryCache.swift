import Synchronization

/// A thread-safe LRU of decoded images keyed by string, bounded by total cost and count.
///
/// Entries are spread over 16 shards, each behind its own `Mutex`, so threads hitting different keys rarely
/// contend. Recency is exact within a shard (a linked list) and ordered across shards by a logical clock that
/// advances on every store: a hit makes its entry newer than everything stored before it, and eviction removes
/// the oldest of the shards' oldest entries. So entries leave in the order they were stored or last hit, except
/// that entries hit between the same two stores may leave in either order. A hit writes nothing that all
/// threads share, and a repeated hit between two stores writes nothing but its shard's lock: a clock advanced
/// on every hit was one contended cache line, and cost two threads all their gain over one.
/// Get, set and remove are O(1). Limits are enforced on every set.
///
/// Linux has no memory-warning notification: call ``purge()`` yourself when the process should give memory
/// back (a cgroup memory-pressure event, a backgrounded service, a large allocation coming up).
///
/// ```swift
/// let cache = MemoryCache(configuration: .init(costLimit: 64 << 20))
/// cache.setImage(image, forKey: "https://example.com/a.jpg")
/// let hit = cache.image(forKey: "https://example.com/a.jpg")
/// ```
public final class MemoryCache: Sendable {
    /// Limits and the weak cache switch.
    public struct Configuration: Sendable, Hashable {
        /// The most total cost (bytes, by default each image's ``Image/memoryCost``) kept. Default 0: unlimited.
        public var costLimit: Int
        /// The most entries kept. Default 0: unlimited.
        public var countLimit: Int
        /// Keep images evicted by the limits (or by ``MemoryCache/purge()``) findable while something else
        /// still holds them (SDWebImage's `shouldUseWeakMemoryCache`). Default false.
        public var shouldUseWeakCache: Bool

        public init(costLimit: Int = 0, countLimit: Int = 0, shouldUseWeakCache: Bool = false) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.shouldUseWeakCache = shouldUseWeakCache
        }
    }

    private final class Shard: Sendable {
        let list = Mutex(LRUList())
        /// The stamp of this shard's least recently used entry (`.max` when empty), republished after every
        /// change so eviction can find the globally oldest entry without locking every shard.
        let oldestStamp = Atomic<UInt64>(.max)
        /// Keeps the next shard's lock and stamp off this shard's cache lines: shards are allocated back to
        /// back, and two threads on neighbouring shards would otherwise contend as if they shared one.
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

        /// Runs `body` on the list under the lock, then republishes the oldest stamp.
        func update<T>(_ body: (inout LRUList) -> T) -> T {
            list.withLock { list in
                let result = body(&list)
                publishOldest(of: list)
                return result
            }
        }

        /// Stores the list's oldest stamp (call under the lock); skips the store when unchanged so hits on
        /// other entries leave the cache line shared.
        func publishOldest(of list: borrowing LRUList) {
            let stamp = list.oldestStamp ?? .max
            if oldestStamp.load(ordering: .relaxed) != stamp { oldestStamp.store(stamp, ordering: .relaxed) }
        }
    }

    private static let shardShift: UInt64 = 60
    private static let shardCount = 1 << (64 - shardShift)
    /// The limits it was created with.
    public let configuration: Configuration
    private let shards: [Shard]
    private let costTotal = Atomic<Int>(0)
    private let countTotal = Atomic<Int>(0)
    /// Stores so far: the logical clock ordering entries across shards (reading the system clock costs more
    /// than a whole lookup).
    private let stores = Atomic<UInt64>(0)
    /// Serialises eviction so two writers over the limit do not both evict for the same excess.
    private let evicting = Mutex(())

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// The image for `key`, marking it most recently used; nil on a miss.
    public func image(forKey key: String) -> Image? {
        let stamp = hitStamp()
        let hash = CacheKeyHash.hash(key)
        let shard = shard(for: hash)
        var revivedCost: Int?
        let image: Image? = shard.list.withLock { list in
            if let image = list.hit(key, hash: hash, stamp: stamp) {
                shard.publishOldest(of: list)
                return image
            }
            guard configuration.shouldUseWeakCache, let entry = list.weak[key], let image = entry.image else { return nil }
            revivedCost = entry.cost
            return image
        }
        if let image, let revivedCost { setImage(image, forKey: key, cost: revivedCost) }
        return image
    }

    /// Whether `key` is cached (weakly held images count), without changing its recency.
    public func containsImage(forKey key: String) -> Bool {
        let hash = CacheKeyHash.hash(key)
        return shard(for: hash).list.withLock { list in
            list.peek(key, hash: hash) != nil || (configuration.shouldUseWeakCache && list.weak[key]?.image != nil)
        }
    }

    /// Stores `image` as most recently used, then evicts least recently used entries past the limits.
    ///
    /// `cost` defaults to the image's ``Image/memoryCost``.
    public func setImage(_ image: Image, forKey key: String, cost: Int? = nil) {
        let entryCost = max(0, cost ?? image.memoryCost)
        let stamp = storeStamp()
        let hash = CacheKeyHash.hash(key)
        let change = shard(for: hash).update { $0.set(key, hash: hash, image: image, cost: entryCost, stamp: stamp) }
        costTotal.wrappingAdd(entryCost - change.replacedCost, ordering: .relaxed)
        if change.isNew { countTotal.wrappingAdd(1, ordering: .relaxed) }
        if isOverLimit { evict() }
    }

    /// Removes `key` (also from the weak cache).
    public func removeImage(forKey key: String) {
        let hash = CacheKeyHash.hash(key)
        let removed = shard(for: hash).update { list in
            list.weak[key] = nil
            return list.remove(key, hash: hash)
        }
        if let removed { settle(removedCost: removed, count: 1) }
    }

    /// Removes every entry, weakly held ones included.
    public func removeAll() {
        for shard in shards {
            let removed = shard.update { list in
                list.weak = [:]
                return list.removeAll()
            }
            settle(removedCost: removed.reduce(0) { $0 + $1.cost }, count: removed.count)
        }
    }

    /// Gives memory back: drops every strongly held entry (SDWebImage's response to a memory warning).
    ///
    /// With the weak cache on, images still held elsewhere stay findable. Call it when the process should
    /// shrink; Linux sends no memory warning.
    public func purge() {
        for shard in shards {
            let removed = shard.update { list in
                let all = list.removeAll()
                if configuration.shouldUseWeakCache { all.forEach { list.keepWeakly($0) } }
                return all
            }
            settle(removedCost: removed.reduce(0) { $0 + $1.cost }, count: removed.count)
        }
    }

    /// The sum of the strongly held entries' costs.
    public var totalCost: Int { costTotal.load(ordering: .relaxed) }

    /// The number of strongly held entries.
    public var totalCount: Int { countTotal.load(ordering: .relaxed) }

    private var isOverLimit: Bool {
        (configuration.costLimit > 0 && totalCost > configuration.costLimit)
            || (configuration.countLimit > 0 && totalCount > configuration.countLimit)
    }

    /// Removes globally least recently used entries until within the limits.
    private func evict() {
        evicting.withLock { _ in
            while isOverLimit {
                var oldest: (shard: Shard, stamp: UInt64)?
                for shard in shards {
                    let stamp = shard.oldestStamp.load(ordering: .relaxed)
                    if stamp < oldest?.stamp ?? .max { oldest = (shard, stamp) }
                }
                guard let oldest else { return }
                let evicted: LRUList.Entry? = oldest.shard.update { list in
                    guard let entry = list.removeOldest() else { return nil }
                    if configuration.shouldUseWeakCache { list.keepWeakly(entry) }
                    return entry
                }
                if let evicted { settle(removedCost: evicted.cost, count: 1) }
            }
        }
    }

    private func settle(removedCost: Int, count removedCount: Int) {
        costTotal.wrappingSubtract(removedCost, ordering: .relaxed)
        countTotal.wrappingSubtract(removedCount, ordering: .relaxed)
    }

    /// The shard owning `hash`, by its top bits (the shard's index uses the low bits).
    private func shard(for hash: UInt64) -> Shard {
        shards[Int(truncatingIfNeeded: hash >> Self.shardShift)]
    }

    /// An even stamp newer than every earlier store and hit.
    private func storeStamp() -> UInt64 {
        2 * stores.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// An odd stamp newer than every store so far, older than every later one; only read, never written.
    private func hitStamp() -> UInt64 {
        2 * stores.load(ordering: .relaxed) + 1
    }
}
