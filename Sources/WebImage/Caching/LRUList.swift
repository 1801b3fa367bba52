/// One shard's entries in recency order: a dictionary into a doubly linked list stored in parallel arrays.
///
/// Links are array indices in plain `Int` arrays, apart from the keys and images, so moving an entry to the
/// front touches a few integers — no per-entry allocation and no reference counting on the hot path; freed
/// slots are reused. Every operation is O(1). Each entry carries the logical time of its last use so the
/// shards of a ``MemoryCache`` can agree on the globally least recently used entry.
struct LRUList {
    /// A removed entry, handed back so the caller can settle totals (or keep it weakly).
    struct Entry {
        var key: String
        var image: Image
        var cost: Int
    }

    /// An evicted entry still held weakly (the weak memory cache).
    struct WeakEntry {
        weak var image: Image?
        var cost: Int
    }

    /// A key with its string hash computed once by the caller (who also picks the shard with it), so the
    /// dictionary hashes one integer instead of the whole string again.
    struct HashedKey: Hashable {
        var key: String
        var hash: Int

        init(_ key: String) {
            self.key = key
            hash = key.hashValue
        }

        static func == (lhs: HashedKey, rhs: HashedKey) -> Bool {
            lhs.hash == rhs.hash && lhs.key == rhs.key
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }
    }

    private var index: [HashedKey: Int] = [:]
    private var keys: [String] = []
    /// nil in free slots.
    private var images: [Image?] = []
    private var costs: [Int] = []
    private var stamps: [UInt64] = []
    private var newer: [Int] = []
    private var older: [Int] = []
    private var free: [Int] = []
    /// Most recently used slot.
    private var newest = -1
    /// Least recently used slot: the eviction candidate.
    private var oldest = -1
    var weak: [String: WeakEntry] = [:]
    /// Live weak entries after the last sweep; the table is swept when it doubles past this.
    private var weakSwept = 0

    var count: Int { index.count }

    /// The entry's image, marked most recently used.
    mutating func hit(_ key: HashedKey, stamp: UInt64) -> Image? {
        guard let slot = index[key] else { return nil }
        moveToNewest(slot)
        stamps[slot] = stamp
        return images[slot]
    }

    /// The entry's image without changing its recency.
    func peek(_ key: HashedKey) -> Image? {
        index[key].flatMap { images[$0] }
    }

    /// Inserts or replaces; returns the cost of the entry it replaced (0 when new).
    mutating func set(_ key: HashedKey, image: Image, cost: Int, stamp: UInt64) -> (replacedCost: Int, isNew: Bool) {
        if !weak.isEmpty { weak[key.key] = nil }
        if let slot = index[key] {
            let old = costs[slot]
            images[slot] = image
            costs[slot] = cost
            stamps[slot] = stamp
            moveToNewest(slot)
            return (old, false)
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            keys[slot] = key.key
            images[slot] = image
            costs[slot] = cost
            stamps[slot] = stamp
        } else {
            slot = keys.count
            keys.append(key.key)
            images.append(image)
            costs.append(cost)
            stamps.append(stamp)
            newer.append(-1)
            older.append(-1)
        }
        index[key] = slot
        linkAsNewest(slot)
        return (0, true)
    }

    /// Removes the entry; returns its cost, or nil when absent.
    mutating func remove(_ key: HashedKey) -> Int? {
        guard let slot = index[key] else { return nil }
        return release(slot).cost
    }

    /// When the least recently used entry was last used, or nil when empty.
    var oldestStamp: UInt64? { oldest >= 0 ? stamps[oldest] : nil }

    /// Removes and returns the least recently used entry.
    mutating func removeOldest() -> Entry? {
        oldest >= 0 ? release(oldest) : nil
    }

    /// Drops every entry; returns them so the caller can settle totals (and keep weak references).
    mutating func removeAll() -> [Entry] {
        let all = index.values.compactMap { slot in images[slot].map { Entry(key: keys[slot], image: $0, cost: costs[slot]) } }
        self = LRUList(weak: weak, weakSwept: weakSwept)
        return all
    }

    private init(weak: [String: WeakEntry], weakSwept: Int) {
        self.weak = weak
        self.weakSwept = weakSwept
    }

    init() {}

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
        let entry = Entry(key: keys[slot], image: images[slot]!, cost: costs[slot])
        images[slot] = nil
        keys[slot] = ""
        index[HashedKey(entry.key)] = nil
        free.append(slot)
        return entry
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    private mutating func linkAsNewest(_ slot: Int) {
        older[slot] = newest
        newer[slot] = -1
        if newest >= 0 { newer[newest] = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let before = older[slot], after = newer[slot]
        if before >= 0 { newer[before] = after } else { oldest = after }
        if after >= 0 { older[after] = before } else { newest = before }
        older[slot] = -1
        newer[slot] = -1
    }
}
