/// A Redis Cluster node's address, `HOST:PORT`.
struct RedisClusterNode: Sendable, Hashable, CustomStringConvertible {
    var host: String
    var port: Int

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `HOST:PORT` as Redis writes it (`::1:7000` for IPv6); an empty host is `asked`'s (the node that answered).
    init?(_ text: Substring, asked: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (1...65_535).contains(port) else { return nil }
        let host = String(text[..<colon])
        guard host != "?" else { return nil }
        self.init(host: host.isEmpty ? asked : host, port: port)
    }

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}

/// Which master serves each slot, from `CLUSTER SLOTS`; changed by `MOVED` replies between refreshes.
struct RedisClusterMap: Sendable {
    /// For each slot, its master's index in ``masters``; nil for a slot no master serves.
    private var owners: [UInt16?]
    private(set) var masters: [RedisClusterNode]

    /// The map a `CLUSTER SLOTS` reply gives (`[[start, end, [host, port, id, …], replicas…], …]`): the first node
    /// of each range is its master. Nil for a reply not of that shape, or one that assigns no slot.
    init?(slots reply: RESPValue, asked: String) {
        guard case .array(let ranges?) = reply else { return nil }
        owners = Array(repeating: nil, count: RedisClusterSlot.count)
        masters = []
        for range in ranges {
            guard case .array(let parts?) = range, parts.count >= 3, case .integer(let start) = parts[0],
                  case .integer(let end) = parts[1], 0 <= start, start <= end, end < RedisClusterSlot.count,
                  case .array(let master?) = parts[2], master.count >= 2, case .bulkString(let host?) = master[0],
                  case .integer(let port) = master[1] else { return nil }
            let node = RedisClusterNode(host: host.isEmpty ? asked : String(decoding: host, as: UTF8.self), port: port)
            let index = masters.firstIndex(of: node) ?? masters.endIndex
            if index == masters.endIndex { masters.append(node) }
            for slot in start...end { owners[slot] = UInt16(index) }
        }
        guard !masters.isEmpty else { return nil }
    }

    /// The master serving `slot`; nil when none does (the cluster is down for it).
    func master(of slot: Int) -> RedisClusterNode? {
        owners[slot].map { masters[Int($0)] }
    }

    /// `MOVED`: `slot` is now `node`'s until the next refresh says otherwise.
    mutating func move(_ slot: Int, to node: RedisClusterNode) {
        let index = masters.firstIndex(of: node) ?? masters.endIndex
        if index == masters.endIndex { masters.append(node) }
        owners[slot] = UInt16(index)
    }
}

/// A redirection reply: `MOVED SLOT HOST:PORT` (the slot has moved: ask there from now on) or `ASK SLOT HOST:PORT`
/// (this one key is being migrated: ask there once, after `ASKING`).
struct RedisClusterRedirect: Sendable, Hashable {
    var moved: Bool
    var slot: Int
    var node: RedisClusterNode

    init?(_ reply: RESPValue, asked: String) {
        guard case .error(let message) = reply else { return nil }
        let words = message.split(separator: " ")
        guard words.count == 3, words[0] == "MOVED" || words[0] == "ASK", let slot = Int(words[1]),
              (0..<RedisClusterSlot.count).contains(slot), let node = RedisClusterNode(words[2], asked: asked) else {
            return nil
        }
        self.init(moved: words[0] == "MOVED", slot: slot, node: node)
    }

    init(moved: Bool, slot: Int, node: RedisClusterNode) {
        self.moved = moved
        self.slot = slot
        self.node = node
    }
}
