/// One shard's entries in recency order: a doubly linked list of nodes indexed by an ``EntryTable``.
///
/// Nodes live in one array and link by index, so a move touches one node and its two neighbours; freed nodes
/// are reused. The table is keyed by the caller's ``CacheKeyHash`` (computed once per operation, and also used
/// to pick the shard), so nothing is hashed again. Every operation is O(1) (amortised over table growth).
/// Each entry carries the logical time of its last use so the shards of a ``MemoryCache`` can agree on the
/// globally least recently used entry. Entries that leave, and a table that is replaced, are handed back so the
/// cache can retire them once lock-free readers are done with them.
struct LRUList {
    /// An evicted entry still held weakly (the weak memory cache).
    struct WeakEntry {
        weak var image: Image?
        var cost: Int
    }

    /// What a store changed.
    struct Change {
        /// The entry with the same key that the store replaced.
        var replaced: CacheEntry?
        /// The table the store outgrew: readers may still be probing it.
        var outgrownTable: EntryTable?
    }

    private struct Node {
        /// nil in free nodes.
        var entry: CacheEntry?
        var newer = -1
        var older = -1
    }

    private var nodes: [Node] = []
    /// The index readers probe; publish it again whenever it changes identity.
    private(set) var table = EntryTable(capacity: 16)
    private var free: [Int] = []
    /// Most recently used node.
    private var newest = -1
    /// Least recently used node: the eviction candidate.
    private var oldest = -1
    var weak: [String: WeakEntry] = [:]
    /// Live weak entries after the last sweep; the table is swept when it doubles past this.
    private var weakSwept = 0

    var count: Int { nodes.count - free.count }

    /// The entry's image, marked most recently used unless it already carries `stamp`.
    ///
    /// An entry hit again before the next store keeps its place: the order among hits between two stores is
    /// not kept anyway, and skipping the move leaves a re-read entry's memory unwritten, so threads reading
    /// the same entries do not pass its cache lines back and forth (and later hits take the lock-free path).
    mutating func hit(_ key: String, hash: UInt64, stamp: UInt64) -> Image? {
        guard let found = table.lookup(key, hash: hash) else { return nil }
        let entry = found.entry.takeUnretainedValue()
        if entry.stamp.load(ordering: .relaxed) != stamp {
            entry.stamp.store(stamp, ordering: .relaxed)
            moveToNewest(entry.node)
        }
        return entry.image
    }

    /// Whether `key` has an entry, without changing its recency.
    func contains(_ key: String, hash: UInt64) -> Bool {
        table.lookup(key, hash: hash) != nil
    }

    /// Inserts or replaces.
    mutating func set(_ key: String, hash: UInt64, image: Image, cost: Int, stamp: UInt64) -> Change {
        if !weak.isEmpty { weak[key] = nil }
        if let found = table.lookup(key, hash: hash) {
            let old = found.entry.takeUnretainedValue()
            let entry = CacheEntry(key: key, hash: hash, image: image, cost: cost, node: old.node, stamp: stamp)
            nodes[old.node].entry = entry
            table.replace(at: found.position, with: entry)
            moveToNewest(old.node)
            return Change(replaced: old)
        }
        let node = free.popLast() ?? nodes.count
        let entry = CacheEntry(key: key, hash: hash, image: image, cost: cost, node: node, stamp: stamp)
        if node == nodes.count { nodes.append(Node(entry: entry)) } else { nodes[node] = Node(entry: entry) }
        linkAsNewest(node)
        var change = Change()
        if 2 * count > table.capacity {
            change.outgrownTable = table
            table = EntryTable(capacity: 2 * table.capacity)
            for node in nodes { if let entry = node.entry { table.insert(entry) } }
        } else {
            table.insert(entry)
        }
        return change
    }

    /// Removes the entry for `key` and hands it back, or nil when absent.
    mutating func remove(_ key: String, hash: UInt64) -> CacheEntry? {
        guard let entry = table.lookup(key, hash: hash)?.entry.takeUnretainedValue() else { return nil }
        return release(entry.node)
    }

    /// When the least recently used entry was last used, or nil when empty.
    var oldestStamp: UInt64? { oldest >= 0 ? nodes[oldest].entry?.stamp.load(ordering: .relaxed) : nil }

    /// Removes and returns the least recently used entry.
    mutating func removeOldest() -> CacheEntry? {
        oldest >= 0 ? release(oldest) : nil
    }

    /// Drops every entry and starts a new table; hands back the entries and the old table.
    mutating func removeAll() -> (entries: [CacheEntry], table: EntryTable) {
        let all = nodes.compactMap(\.entry)
        let old = table
        self = LRUList(weak: weak, weakSwept: weakSwept)
        return (all, old)
    }

    private init(weak: [String: WeakEntry], weakSwept: Int) {
        self.weak = weak
        self.weakSwept = weakSwept
    }

    init() {}

    /// Remembers an evicted entry's image weakly, sweeping dead references when the table has doubled.
    mutating func keepWeakly(_ entry: CacheEntry) {
        weak[entry.key] = WeakEntry(image: entry.image, cost: entry.cost)
        if weak.count > 2 * weakSwept + 64 {
            weak = weak.filter { $0.value.image != nil }
            weakSwept = weak.count
        }
    }

    /// Takes `node` out of the table and the list and frees it; returns its entry.
    private mutating func release(_ node: Int) -> CacheEntry? {
        unlink(node)
        let entry = nodes[node].entry
        if let entry { table.remove(entry) }
        nodes[node].entry = nil
        free.append(node)
        return entry
    }

    private mutating func moveToNewest(_ node: Int) {
        guard node != newest else { return }
        unlink(node)
        linkAsNewest(node)
    }

    private mutating func linkAsNewest(_ node: Int) {
        nodes[node].older = newest
        nodes[node].newer = -1
        if newest >= 0 { nodes[newest].newer = node }
        newest = node
        if oldest < 0 { oldest = node }
    }

    private mutating func unlink(_ node: Int) {
        let before = nodes[node].older, after = nodes[node].newer
        if before >= 0 { nodes[before].newer = after } else { oldest = after }
        if after >= 0 { nodes[after].older = before } else { newest = before }
        nodes[node].older = -1
        nodes[node].newer = -1
    }
}
