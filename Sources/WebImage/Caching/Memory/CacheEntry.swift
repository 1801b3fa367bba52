import Synchronization

/// One memory-cache entry, immutable but for its recency stamp, so lock-free readers can use it safely.
///
/// Readers reach entries through an ``EntryTable`` without a lock and without retaining them (a retain would
/// write the entry's reference count, one cache line every reading thread would pass around); an entry a writer
/// replaces or removes is released through the cache's ``EpochReclaimer`` once no reader can still hold it.
final class CacheEntry: Sendable {
    let key: String
    let hash: UInt64
    let image: Image
    let cost: Int
    /// The node this entry occupies in its shard's ``LRUList`` for its whole life.
    let node: Int
    /// The logical time of the last store or hit (see ``MemoryCache``); written under the shard's lock, read by
    /// lock-free hits to tell whether the entry is already marked as used at the current time.
    let stamp: Atomic<UInt64>

    init(key: String, hash: UInt64, image: Image, cost: Int, node: Int, stamp: UInt64) {
        self.key = key
        self.hash = hash
        self.image = image
        self.cost = cost
        self.node = node
        self.stamp = Atomic(stamp)
    }
}
