import Logging
import Metrics
import Synchronization

/// A thread-safe LRU of decoded images keyed by string, bounded by total cost and count.
///
/// Entries are spread over 16 shards, each with its own `Mutex` for changes. A hit on an entry already marked
/// as used at the current logical time reads without any lock: it probes the shard's ``EntryTable`` inside an
/// ``EpochReclaimer`` read, which writes only a counter of the reader's own CPU, so threads hitting the cache
/// on different cores share no written cache line but the images' reference counts. Any other hit (the first
/// after a store, a weakly held image, a probe that raced a change) takes the shard's lock.
///
/// Recency is exact within a shard (a linked list) and ordered across shards by a logical clock that
/// advances on every store: a hit makes its entry newer than everything stored before it, and eviction removes
/// the oldest of the shards' oldest entries. So entries leave in the order they were stored or last hit, except
/// that entries hit between the same two stores may leave in either order: a repeated hit between two stores
/// writes nothing at all. Get, set and remove are O(1). Limits are enforced on every set.
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
    public struct Configuration: Sendable, Hashable, InstrumentedConfiguration {
        /// The most total cost (bytes, by default each image's ``Image/memoryCost``) kept. Default 0: unlimited.
        public var costLimit: Int
        /// The most entries kept. Default 0: unlimited.
        public var countLimit: Int
        /// Keep images evicted by the limits (or by ``MemoryCache/purge()``) findable while something else
        /// still holds them (SDWebImage's `shouldUseWeakMemoryCache`). Default false.
        public var shouldUseWeakCache: Bool
        /// The most cost one entry may have: a costlier image is not kept, so one huge image cannot flush the
        /// cache (an entry already under its key is removed, so no stale image stays). Default 0: no limit.
        public var entryCostLimit: Int
        /// Where evictions are logged (`debug`; hits never are) and the eviction counter
        /// (``WebImageMetrics/cacheEvictions``) is made. Default `Instrumentation(label: "SwiftWebImage.MemoryCache")`;
        /// an ``ImageCache`` passes its own. Not part of `==`.
        public var instrumentation = Instrumentation(label: "SwiftWebImage.MemoryCache")

        /// Limits of 0 or less mean no limit.
        public init(costLimit: Int = 0, countLimit: Int = 0, shouldUseWeakCache: Bool = false, entryCostLimit: Int = 0) {
            self.costLimit = costLimit
            self.countLimit = countLimit
            self.shouldUseWeakCache = shouldUseWeakCache
            self.entryCostLimit = entryCostLimit
        }
    }

    private final class Shard: Sendable {
        let list = Mutex(LRUList())
        /// The stamp of this shard's least recently used entry (`.max` when empty), republished after every
        /// change so eviction can find the globally oldest entry without locking every shard.
        let oldestStamp = Atomic<UInt64>(.max)
        /// Where this shard's table is published for lock-free readers.
        private let tables: PaddedAtomicArray
        private let index: Int
        /// Keeps the next shard's lock and stamp off this shard's cache lines: shards are allocated back to
        /// back, and two threads on neighbouring shards would otherwise contend as if they shared one.
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

        init(publishingTo tables: PaddedAtomicArray, at index: Int) {
            self.tables = tables
            self.index = index
            list.withLock { publish($0) }
        }

        /// Runs `body` on the list under the lock, then republishes the table and the oldest stamp.
        func update<T>(_ body: (inout LRUList) -> T) -> T {
            list.withLock { list in
                let result = body(&list)
                publish(list)
                return result
            }
        }

        /// Publishes the list's table and oldest stamp (call under the lock); skips unchanged values so hits
        /// on other entries leave the cache lines shared.
        func publish(_ list: borrowing LRUList) {
            let table = UInt(bitPattern: Unmanaged.passUnretained(list.table).toOpaque())
            if tables[index].pointee.load(ordering: .relaxed) != table {
                tables[index].pointee.store(table, ordering: .sequentiallyConsistent)
            }
            let stamp = list.oldestStamp ?? .max
            if oldestStamp.load(ordering: .relaxed) != stamp { oldestStamp.store(stamp, ordering: .relaxed) }
        }
    }

    /// Hands a batch of unlinked entries to the reclaimer as one object.
    private final class RetiredEntries: Sendable {
        let entries: [CacheEntry]
        init(_ entries: [CacheEntry]) { self.entries = entries }
    }

    private static let shardShift: UInt64 = 60
    private static let shardCount = 1 << (64 - shardShift)
    /// The limits it was created with.
    public let configuration: Configuration
    private let shards: [Shard]
    /// Each shard's ``EntryTable``, unretained (the shard's list keeps it alive; a replaced one is retired):
    /// what lock-free hits probe, without touching, let alone retaining, the shard object.
    private let tables = PaddedAtomicArray(count: shardCount)
    private let costTotal = Atomic<Int>(0)
    private let countTotal = Atomic<Int>(0)
    /// Stores so far: the logical clock ordering entries across shards (reading the system clock costs more
    /// than a whole lookup).
    private let stores = Atomic<UInt64>(0)
    /// Serialises eviction so two writers over the limit do not both evict for the same excess.
    private let evicting = Mutex(())
    /// Releases entries and tables that lock-free readers may still be looking at.
    private let reclaimer = EpochReclaimer()
    private let logger: Logger
    /// Entries evicted by the limits (made once: hits and stores must not create metrics).
    private let evictions: Counter

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        shards = (0..<Self.shardCount).map { [tables] in Shard(publishingTo: tables, at: $0) }
        logger = configuration.logger
        evictions = Counter(label: WebImageMetrics.cacheEvictions,
                            dimensions: [(WebImageMetrics.Dimension.tier, WebImageMetrics.Tier.memory),
                                         (WebImageMetrics.Dimension.reason, WebImageMetrics.Reason.limit)],
                            factory: configuration.metricsFactory)
    }

    /// The image for `key`, marking it most recently used; nil on a miss.
    public func image(forKey key: String) -> Image? {
        let stamp = hitStamp()
        let hash = CacheKeyHash.hash(key)
        let ticket = reclaimer.enter()
        let unlocked: Image? = lockFreeEntry(key, hash: hash)?._withUnsafeGuaranteedRef { entry in
            entry.stamp.load(ordering: .relaxed) == stamp ? entry.image : nil
        }
        reclaimer.leave(ticket)
        if let unlocked { return unlocked }
        let shard = shard(for: hash)
        var revivedCost: Int?
        let image: Image? = shard.list.withLock { list in
            if let image = list.hit(key, hash: hash, stamp: stamp) {
                shard.publish(list)
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
        let ticket = reclaimer.enter()
        let found = lockFreeEntry(key, hash: hash) != nil
        reclaimer.leave(ticket)
        return found || shard(for: hash).list.withLock { list in
            list.contains(key, hash: hash) || (configuration.shouldUseWeakCache && list.weak[key]?.image != nil)
        }
    }

    /// Stores `image` as most recently used, then evicts least recently used entries past the limits.
    ///
    /// `cost` defaults to the image's ``Image/memoryCost``. An image over ``Configuration/entryCostLimit`` is
    /// not kept, and removes whatever `key` held.
    public func setImage(_ image: Image, forKey key: String, cost: Int? = nil) {
        let entryCost = max(0, cost ?? image.memoryCost)
        if configuration.entryCostLimit > 0, entryCost > configuration.entryCostLimit {
            removeImage(forKey: key)
            return
        }
        let stamp = storeStamp()
        let hash = CacheKeyHash.hash(key)
        let change = shard(for: hash).update { $0.set(key, hash: hash, image: image, cost: entryCost, stamp: stamp) }
        costTotal.wrappingAdd(entryCost - (change.replaced?.cost ?? 0), ordering: .relaxed)
        if let replaced = change.replaced {
            reclaimer.retire(replaced)
        } else {
            countTotal.wrappingAdd(1, ordering: .relaxed)
        }
        if let outgrown = change.outgrownTable { reclaimer.retire(outgrown) }
        if isOverLimit { evict() }
    }

    /// Removes `key` (also from the weak cache).
    public func removeImage(forKey key: String) {
        let hash = CacheKeyHash.hash(key)
        let removed = shard(for: hash).update { list in
            list.weak[key] = nil
            return list.remove(key, hash: hash)
        }
        if let removed { settle(removed) }
    }

    /// Removes every entry, weakly held ones included.
    public func removeAll() {
        for shard in shards {
            settle(shard.update { list in
                list.weak = [:]
                return list.removeAll()
            })
        }
    }

    /// Gives memory back: drops every strongly held entry (SDWebImage's response to a memory warning).
    ///
    /// With the weak cache on, images still held elsewhere stay findable. Call it when the process should
    /// shrink; Linux sends no memory warning.
    public func purge() {
        for shard in shards {
            settle(shard.update { list in
                let all = list.removeAll()
                if configuration.shouldUseWeakCache { all.entries.forEach { list.keepWeakly($0) } }
                return all
            })
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

    /// Removes globally least recently used entries until within the limits; counts and logs them after.
    private func evict() {
        let evicted = evicting.withLock { _ -> (count: Int, cost: Int) in
            var evicted = (count: 0, cost: 0)
            while isOverLimit {
                var oldest: (shard: Shard, stamp: UInt64)?
                for shard in shards {
                    let stamp = shard.oldestStamp.load(ordering: .relaxed)
                    if stamp < oldest?.stamp ?? .max { oldest = (shard, stamp) }
                }
                guard let oldest else { break }
                let entry: CacheEntry? = oldest.shard.update { list in
                    guard let entry = list.removeOldest() else { return nil }
                    if configuration.shouldUseWeakCache { list.keepWeakly(entry) }
                    return entry
                }
                if let entry {
                    evicted.count += 1
                    evicted.cost += entry.cost
                    settle(entry)
                }
            }
            return evicted
        }
        guard evicted.count > 0 else { return }
        evictions.increment(by: evicted.count)
        logger.debug("memory cache evicted entries over its limits",
                     metadata: ["entries": "\(evicted.count)", "cost": "\(evicted.cost)", "totalCost": "\(totalCost)",
                                "costLimit": "\(configuration.costLimit)", "countLimit": "\(configuration.countLimit)"])
    }

    /// Takes an unlinked entry off the totals and retires it.
    private func settle(_ entry: CacheEntry) {
        costTotal.wrappingSubtract(entry.cost, ordering: .relaxed)
        countTotal.wrappingSubtract(1, ordering: .relaxed)
        reclaimer.retire(entry)
    }

    /// Takes a whole shard's entries off the totals and retires them with its old table.
    private func settle(_ removed: (entries: [CacheEntry], table: EntryTable)) {
        costTotal.wrappingSubtract(removed.entries.reduce(0) { $0 + $1.cost }, ordering: .relaxed)
        countTotal.wrappingSubtract(removed.entries.count, ordering: .relaxed)
        reclaimer.retire(RetiredEntries(removed.entries))
        reclaimer.retire(removed.table)
    }

    /// The shard owning `hash`, by its top bits (the shard's table uses the low bits).
    private func shard(for hash: UInt64) -> Shard {
        shards[Self.shardIndex(hash)]
    }

    private static func shardIndex(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> shardShift)
    }

    /// The entry for `key` in its shard's published table, probed with no lock and no write (call inside an
    /// ``EpochReclaimer`` read). nil may be a false miss: the caller falls back to the locked path.
    @inline(__always)
    private func lockFreeEntry(_ key: String, hash: UInt64) -> Unmanaged<CacheEntry>? {
        let bits = tables[Self.shardIndex(hash)].pointee.load(ordering: .sequentiallyConsistent)
        guard let table = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged<EntryTable>.fromOpaque(table)._withUnsafeGuaranteedRef { $0.lookup(key, hash: hash)?.entry }
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
