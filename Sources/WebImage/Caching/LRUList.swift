/// One shard's entries in recency order: an open-addressing index into a doubly linked list of nodes.
///
/// Nodes live in one array and link by index, so a hit touches one node and its two neighbours: no per-entry
/// allocation and no reference counting on the hot path; freed nodes are reused. The index is keyed by the
/// caller's ``CacheKeyHash`` (computed once per operation, and also used to pick the shard), so a lookup
/// hashes nothing again. Every operation is O(1). Each node carries the logical time of its last use so the
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

    struct Node {
        var key: String
        /// nil in free nodes.
        var image: Image?
        var hash: UInt64
        var cost: Int
        var stamp: UInt64
        var newer: Int
        var older: Int
    }

    var nodes: [Node] = []
    /// Open-addressing table of node indices (-1 = empty), linear probing, at most half full.
    var index = [Int](repeating: -1, count: 16)
    var free: [Int] = []
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
    /// the same entries do not pass its cache lines back and forth.
    mutating func hit(_ key: String, hash: UInt64, stamp: UInt64) -> Image? {
        guard let node = find(key, hash: hash) else { return nil }
        if nodes[node].stamp != stamp {
            nodes[node].stamp = stamp
            moveToNewest(node)
        }
        return nodes[node].image
    }

    /// The entry's image without changing its recency.
    func peek(_ key: String, hash: UInt64) -> Image? {
        find(key, hash: hash).flatMap { nodes[$0].image }
    }

    /// Inserts or replaces; returns the cost of the entry it replaced (0 when new).
    mutating func set(_ key: String, hash: UInt64, image: Image, cost: Int,
                      stamp: UInt64) -> (replacedCost: Int, isNew: Bool) {
        if !weak.isEmpty { weak[key] = nil }
        if let node = find(key, hash: hash) {
            let old = nodes[node].cost
            nodes[node].image = image
            nodes[node].cost = cost
            nodes[node].stamp = stamp
            moveToNewest(node)
            return (old, false)
        }
        let fresh = Node(key: key, image: image, hash: hash, cost: cost, stamp: stamp, newer: -1, older: -1)
        let node: Int
        if let reused = free.popLast() {
            node = reused
            nodes[node] = fresh
        } else {
            node = nodes.count
            nodes.append(fresh)
        }
        insertIntoIndex(node)
        linkAsNewest(node)
        return (0, true)
    }

    /// Removes the entry; returns its cost, or nil when absent.
    mutating func remove(_ key: String, hash: UInt64) -> Int? {
        guard let node = find(key, hash: hash) else { return nil }
        return release(node).cost
    }

    /// When the least recently used entry was last used, or nil when empty.
    var oldestStamp: UInt64? { oldest >= 0 ? nodes[oldest].stamp : nil }

    /// Removes and returns the least recently used entry.
    mutating func removeOldest() -> Entry? {
        oldest >= 0 ? release(oldest) : nil
    }

    /// Drops every entry; returns them so the caller can settle totals (and keep weak references).
    mutating func removeAll() -> [Entry] {
        let all = nodes.compactMap { node in node.image.map { Entry(key: node.key, image: $0, cost: node.cost) } }
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

    private mutating func release(_ node: Int) -> Entry {
        unlink(node)
        removeFromIndex(node)
        let entry = Entry(key: nodes[node].key, image: nodes[node].image!, cost: nodes[node].cost)
        nodes[node].image = nil
        nodes[node].key = ""
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
