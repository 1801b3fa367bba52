/// One shard's entries in recency order: a dictionary into a doubly linked list stored in an array.
///
/// Links are array indices (no per-entry allocation, no reference counting on the hot path); freed slots are
/// reused. Every operation is O(1). Each entry carries the time of its last use so the shards of a
/// ``MemoryCache`` can agree on the globally least recently used entry.
struct LRUList {
    struct Entry {
        var key: String
        var image: Image
        var cost: Int
        /// The logical time of the last set or hit.
        var stamp: UInt64
        var newer = -1
        var older = -1
    }

    /// An evicted entry still held weakly (the weak memory cache).
    struct WeakEntry {
        weak var image: Image?
        var cost: Int
    }

    private var index: [String: Int] = [:]
    private var entries: [Entry?] = []
    private var free: [Int] = []
    /// Most recently used.
    private var newest = -1
    /// Least recently used: the eviction candidate.
    private var oldest = -1
    var weak: [String: WeakEntry] = [:]
    /// Live weak entries after the last sweep; the table is swept when it doubles past this.
    private var weakSwept = 0

    var count: Int { index.count }

    /// The entry's image, marked most recently used.
    mutating func hit(_ key: String, stamp: UInt64) -> Image? {
        guard let slot = index[key] else { return nil }
        moveToNewest(slot)
        entries[slot]!.stamp = stamp
        return entries[slot]!.image
    }

    /// The entry's image without changing its recency.
    func peek(_ key: String) -> Image? {
        index[key].flatMap { entries[$0]?.image }
    }

    /// Inserts or replaces; returns the cost of the entry it replaced (0 when new).
    mutating func set(_ key: String, image: Image, cost: Int, stamp: UInt64) -> (replacedCost: Int, isNew: Bool) {
        weak[key] = nil
        if let slot = index[key] {
            let old = entries[slot]!.cost
            entries[slot]!.image = image
            entries[slot]!.cost = cost
            entries[slot]!.stamp = stamp
            moveToNewest(slot)
            return (old, false)
        }
        let entry = Entry(key: key, image: image, cost: cost, stamp: stamp)
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            entries[slot] = entry
        } else {
            slot = entries.count
            entries.append(entry)
        }
        index[key] = slot
        linkAsNewest(slot)
        return (0, true)
    }

    /// Removes the entry; returns its cost, or nil when absent.
    mutating func remove(_ key: String) -> Int? {
        guard let slot = index[key] else { return nil }
        return release(slot).cost
    }

    /// When the least recently used entry was last used, or nil when empty.
    var oldestStamp: UInt64? { oldest >= 0 ? entries[oldest]!.stamp : nil }

    /// Removes and returns the least recently used entry.
    mutating func removeOldest() -> Entry? {
        oldest >= 0 ? release(oldest) : nil
    }

    /// Drops every entry; returns them so the caller can settle totals (and keep weak references).
    mutating func removeAll() -> [Entry] {
        let all = entries.compactMap { $0 }
        index = [:]
        entries = []
        free = []
        newest = -1
        oldest = -1
        return all
    }

    /// Remembers an evicted image weakly, sweeping dead references when the table has doubled.
    mutating func keepWeakly(_ entry: Entry) {
        weak[entry.key] = WeakEntry(image: entry.image, cost: entry.cost)
        if weak.count > 2 * weakSwept + 64 {
            weak = weak.filter { $0.value.image != nil }
            weakSwept = weak.count
        }
    }

    private mutating func release(_ slot: Int) -> Entry {
        unlink(slot)
        let entry = entries[slot]!
        entries[slot] = nil
        index[entry.key] = nil
        free.append(slot)
        return entry
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    private mutating func linkAsNewest(_ slot: Int) {
        entries[slot]!.older = newest
        entries[slot]!.newer = -1
        if newest >= 0 { entries[newest]!.newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let older = entries[slot]!.older, newer = entries[slot]!.newer
        if older >= 0 { entries[older]!.newer = newer } else { oldest = newer }
        if newer >= 0 { entries[newer]!.older = older } else { newest = older }
        entries[slot]!.older = -1
        entries[slot]!.newer = -1
    }
}
