/// The open-addressing index from key to node: linear probing over a power-of-two table kept at most half
/// full, with backward-shift deletion so no tombstones accumulate.
///
/// A probe compares the stored 64-bit hash before the key, so a miss or a collision rarely touches the string.
extension LRUList {
    /// The node holding `key`, or nil.
    func find(_ key: String, hash: UInt64) -> Int? {
        let mask = index.count - 1
        var position = Self.home(hash, mask: mask)
        while true {
            let node = index[position]
            if node < 0 { return nil }
            if nodes[node].hash == hash && nodes[node].key == key { return node }
            position = (position + 1) & mask
        }
    }

    /// Adds `node` (already counted in ``count``, not yet indexed), doubling the table when it passes half full.
    mutating func insertIntoIndex(_ node: Int) {
        if 2 * count > index.count {
            rebuildIndex(capacity: 2 * index.count)
        } else {
            place(node)
        }
    }

    /// Removes `node` from the index, shifting later members of its probe run back into the gap.
    mutating func removeFromIndex(_ node: Int) {
        let mask = index.count - 1
        var gap = Self.home(nodes[node].hash, mask: mask)
        while index[gap] != node { gap = (gap + 1) & mask }
        var probe = gap
        while true {
            probe = (probe + 1) & mask
            let candidate = index[probe]
            if candidate < 0 { break }
            let home = Self.home(nodes[candidate].hash, mask: mask)
            // The candidate may fill the gap unless its home lies cyclically in (gap, probe].
            let staysPut = gap <= probe ? (gap < home && home <= probe) : (gap < home || home <= probe)
            if staysPut { continue }
            index[gap] = candidate
            gap = probe
        }
        index[gap] = -1
    }

    private mutating func place(_ node: Int) {
        let mask = index.count - 1
        var position = Self.home(nodes[node].hash, mask: mask)
        while index[position] >= 0 { position = (position + 1) & mask }
        index[position] = node
    }

    /// Indexes every live node afresh in a table of `capacity` slots.
    private mutating func rebuildIndex(capacity: Int) {
        index = [Int](repeating: -1, count: capacity)
        for node in nodes.indices where nodes[node].image != nil { place(node) }
    }

    /// The table position a hash starts probing at. The low bits are used; ``MemoryCache`` picks shards by
    /// the high bits, so both stay uniform.
    private static func home(_ hash: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: hash) & mask
    }
}
