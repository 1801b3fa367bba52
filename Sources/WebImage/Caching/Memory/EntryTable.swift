import Synchronization

/// A shard's index from key to ``CacheEntry``, probed by lock-free readers while the one writer holding the
/// shard's lock changes it.
///
/// Linear probing over a power-of-two table kept at most half full, with backward-shift deletion so no
/// tombstones accumulate. Slots hold unretained entry pointers (the shard's ``LRUList`` owns the entries) and
/// every change is a single-slot store, so a reader sees each slot empty or holding an entry that is live or
/// retired but not yet released. While a deletion shifts a probe run back, a reader can miss an entry that is
/// present: the lock-free hit then falls back to the locked path, which never misses. A lookup never answers
/// an entry with another key: it compares the stored hash, then the key.
final class EntryTable: @unchecked Sendable {  // the slots are a manually allocated array of atomics
    let capacity: Int
    private let slots: UnsafeMutablePointer<Atomic<UInt>>

    init(capacity: Int) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// The slot and entry holding `key`, or nil. Safe without the lock inside an ``EpochReclaimer`` read (where
    /// nil may be a false miss); exact under the shard's lock.
    @inline(__always)
    func lookup(_ key: String, hash: UInt64) -> (position: Int, entry: Unmanaged<CacheEntry>)? {
        let mask = capacity - 1
        var position = Self.home(hash, mask: mask)
        // Bounded: a reader racing a writer's shifts must not chase a changing run forever.
        for _ in 0..<capacity {
            guard let entry = entry(at: position) else { return nil }
            if entry._withUnsafeGuaranteedRef({ $0.hash == hash && $0.key == key }) { return (position, entry) }
            position = (position + 1) & mask
        }
        return nil
    }

    /// Adds `entry`, whose key is absent (under the lock; the caller keeps the table at most half full).
    func insert(_ entry: CacheEntry) {
        let mask = capacity - 1
        var position = Self.home(entry.hash, mask: mask)
        while self.entry(at: position) != nil { position = (position + 1) & mask }
        store(entry, at: position)
    }

    /// Puts `entry` (same key) in place of the one at `position` (under the lock).
    func replace(at position: Int, with entry: CacheEntry) {
        store(entry, at: position)
    }

    /// Removes `entry`, found by identity, shifting later members of its probe run back into the gap (under
    /// the lock).
    func remove(_ entry: CacheEntry) {
        let mask = capacity - 1
        let bits = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
        var gap = Self.home(entry.hash, mask: mask)
        while slots[gap].load(ordering: .relaxed) != bits { gap = (gap + 1) & mask }
        var probe = gap
        while true {
            probe = (probe + 1) & mask
            guard let candidate = self.entry(at: probe) else { break }
            let home = Self.home(candidate._withUnsafeGuaranteedRef { $0.hash }, mask: mask)
            // The candidate may fill the gap unless its home lies cyclically in (gap, probe].
            let staysPut = gap <= probe ? (gap < home && home <= probe) : (gap < home || home <= probe)
            if staysPut { continue }
            slots[gap].store(slots[probe].load(ordering: .relaxed), ordering: .sequentiallyConsistent)
            gap = probe
        }
        slots[gap].store(0, ordering: .sequentiallyConsistent)
    }

    @inline(__always)
    private func entry(at position: Int) -> Unmanaged<CacheEntry>? {
        let bits = slots[position].load(ordering: .sequentiallyConsistent)
        return UnsafeRawPointer(bitPattern: bits).map { Unmanaged<CacheEntry>.fromOpaque($0) }
    }

    /// Sequentially consistent, so a reader that starts after the store either sees it or is seen by the
    /// writer's check for readers before anything it replaced is released (see ``EpochReclaimer``).
    private func store(_ entry: CacheEntry, at position: Int) {
        slots[position].store(UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()),
                              ordering: .sequentiallyConsistent)
    }

    /// The slot a hash starts probing at. The low bits are used; ``MemoryCache`` picks shards by the high bits,
    /// so both stay uniform.
    @inline(__always)
    private static func home(_ hash: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: hash) & mask
    }
}
