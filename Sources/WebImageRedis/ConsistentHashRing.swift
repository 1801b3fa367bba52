import Crypto

/// Spreads keys over nodes so that adding or removing one of N nodes moves about 1/N of the keys: each node
/// stands at ``pointsPerNode`` places on a ring of 64-bit hashes, and a key belongs to the first node point
/// at or after its own hash.
public struct ConsistentHashRing<Node: Sendable & Hashable>: Sendable {
    /// Points per node: more spread keys more evenly. Default 160.
    public let pointsPerNode: Int
    private var points: [(hash: UInt64, node: Node)] = []

    /// A ring over `nodes`, each named by `name` (its hash input: equal names give equal rings in every
    /// process).
    public init(nodes: [Node], pointsPerNode: Int = 160, name: (Node) -> String) {
        self.pointsPerNode = max(1, pointsPerNode)
        for node in nodes {
            let label = name(node)
            for point in 0..<self.pointsPerNode { points.append((Self.hash("\(label)#\(point)"), node)) }
        }
        points.sort { $0.hash < $1.hash }
    }

    /// The node `key` belongs to; nil for an empty ring.
    public func node(for key: String) -> Node? {
        guard !points.isEmpty else { return nil }
        let hash = Self.hash(key)
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].hash < hash { low = middle + 1 } else { high = middle }
        }
        return points[low == points.count ? 0 : low].node
    }

    /// The first 8 bytes of the MD5 of `text`: stable across processes and machines.
    static func hash(_ text: String) -> UInt64 {
        Insecure.MD5.hash(data: Array(text.utf8)).withUnsafeBytes { raw in
            raw.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }
}
