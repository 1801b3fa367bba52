/// A least-recently-used table of values with a byte cost, evicting the oldest once the total is over the
/// limit. Not thread-safe: its owner keeps it behind a lock.
struct ByteLRU<Value> {
    private struct Node {
        var key: String
        var value: Value
        var cost: Int
        var older: Int?
        var newer: Int?
    }

    let limit: Int
    private var nodes: [Node?] = []
    private var free: [Int] = []
    private var index: [String: Int] = [:]
    private var newest: Int?
    private var oldest: Int?
    private(set) var totalCost = 0

    init(limit: Int) {
        self.limit = limit
    }

    var count: Int { index.count }

    /// The value for `key`, now the most recently used.
    mutating func value(forKey key: String) -> Value? {
        guard let slot = index[key] else { return nil }
        unlink(slot)
        link(slot)
        return nodes[slot]?.value
    }

    /// Stores `value`; one costing more than the whole limit is not kept.
    mutating func set(_ value: Value, forKey key: String, cost: Int) {
        remove(key)
        guard cost <= limit else { return }
        let node = Node(key: key, value: value, cost: cost)
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            nodes[slot] = node
        } else {
            slot = nodes.count
            nodes.append(node)
        }
        index[key] = slot
        link(slot)
        totalCost += cost
        while totalCost > limit, let victim = oldest, let key = nodes[victim]?.key { remove(key) }
    }

    mutating func remove(_ key: String) {
        guard let slot = index.removeValue(forKey: key) else { return }
        unlink(slot)
        totalCost -= nodes[slot]?.cost ?? 0
        nodes[slot] = nil
        free.append(slot)
    }

    private mutating func link(_ slot: Int) {
        nodes[slot]?.older = newest
        nodes[slot]?.newer = nil
        if let newest { nodes[newest]?.newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let older = nodes[slot]?.older, newer = nodes[slot]?.newer
        if let older { nodes[older]?.newer = newer } else { oldest = newer }
        if let newer { nodes[newer]?.older = older } else { newest = older }
    }
}
