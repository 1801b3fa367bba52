import NIOCore
import NIOPosix
import Synchronization

/// A Redis Cluster behind ``RedisCommanding``: each command goes to the master of its key's slot
/// (``RedisClusterSlot``), so a ``RedisImageCache`` over this one client spreads keys as the cluster does (no hash
/// ring of its own).
///
/// The slot map is read with `CLUSTER SLOTS` from the seeds (or any node known since), on the first call and
/// again in the background after a `MOVED` reply, a failed call, or once it is ``mapMaxAge`` old; a node the new
/// map no longer names as a master has its connections closed. `MOVED` is followed at once and remembered,
/// `ASK` (a slot being migrated) is followed once with `ASKING`; redirections share the call's deadline. Each
/// master has its own ``RedisClient`` (its pooled connections, deadline and breaker, TLS and ACL user as the
/// seeds'), so a dead master costs calls for its slots a failure in bounded time, then none while its breaker is
/// open, until the map names its replica.
/// Commands sent together are pipelined per master; a command with several keys must keep them in one slot
/// (hash tags), as in any cluster client; a command without a key (`PING`, `DBSIZE`) goes to one master.
public final class RedisClusterClient: RedisCommanding, CustomStringConvertible {
    /// The nodes the map is first read from.
    public let seeds: [RedisEndpoint]
    /// Each master's client settings (the deadline bounds a call, redirections included).
    public let configuration: RedisClient.Configuration
    /// Redirections followed for one command before it fails.
    static let maxRedirects = 3
    /// The least time between two background reads of the map.
    static let refreshInterval = Duration.milliseconds(100)
    /// The age at which a call reads the map again in the background, even with no sign of change (a replica
    /// added, a failover whose `MOVED` no call has met yet).
    static let mapMaxAge = Duration.seconds(30)

    let group: any EventLoopGroup
    let state = Mutex(ClusterState())

    struct ClusterState {
        var map: RedisClusterMap?
        var clients: [RedisClusterNode: RedisClient] = [:]
        /// Why the map could not be read, while no map is known.
        var mapFailure: RedisError?
        /// The read of the map under way, which every caller waiting for one shares.
        var reading: Task<Result<RedisClusterMap, RedisError>, Never>?
        var lastRead: ContinuousClock.Instant?
        var closed = false
    }

    /// A client of the cluster the seeds belong to (at least one; their credentials and TLS are every node's).
    public init(seeds: [RedisEndpoint], configuration: RedisClient.Configuration = RedisClient.Configuration(),
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        precondition(!seeds.isEmpty, "a cluster client needs a seed")
        self.seeds = seeds
        self.configuration = configuration
        self.group = group
    }

    /// `redis-cluster://SEED[,SEED…]` (`rediss-cluster://` with TLS).
    public var description: String {
        let scheme = seeds[0].usesTLS ? "rediss-cluster" : "redis-cluster"
        return "\(scheme)://" + seeds.map(\.hostAndPortText).joined(separator: ",")
    }

    /// Whether the map is known (or not yet asked for) and no master's breaker is refusing calls.
    public var isAvailable: Bool { failure == nil }

    /// Why calls are refused: the map could not be read, or a master's breaker is open (its failure, naming it).
    public var failure: RedisError? {
        let (masters, mapFailure) = state.withLock { state in
            (state.map.map { $0.masters.compactMap { state.clients[$0] } }, state.mapFailure)
        }
        guard let masters else { return mapFailure }
        return masters.lazy.compactMap(\.failure).first
    }

    /// Replies in the order of `commands`; each command is sent to its slot's master, those of one master in
    /// one pipeline.
    public func send(_ commands: [[[UInt8]]]) async throws(RedisError) -> [RESPValue] {
        guard !commands.isEmpty else { return [] }
        let start = ContinuousClock.now
        let map = try await currentMap()
        var replies = [RESPValue](repeating: .bulkString(nil), count: commands.count)
        var batches: [RedisClusterNode: [Int]] = [:]
        for (index, command) in commands.enumerated() {
            let slot = Self.slot(of: command)
            guard let node = slot.map({ map.master(of: $0) }) ?? (slot == nil ? map.masters.first : nil) else {
                // As a node answers for a slot no master serves; the map may be out of date.
                replies[index] = .error("CLUSTERDOWN Hash slot not served")
                refreshInBackground()
                continue
            }
            batches[node, default: []].append(index)
        }
        let results = await withTaskGroup(of: (RedisClusterNode, [Int], Result<[RESPValue], RedisError>).self) { group in
            for (node, indices) in batches {
                group.addTask {
                    (node, indices, await self.call(node, indices.map { commands[$0] }, deadline: self.configuration.deadline))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for (node, indices, result) in results {
            let batch = try result.get()
            for (position, index) in indices.enumerated() {
                replies[index] = try await followRedirects(batch[position], command: commands[index], from: node,
                                                           start: start)
            }
        }
        return replies
    }

    /// Closes every node's connections; later calls fail.
    public func close() async {
        let clients = state.withLock { state in
            state.closed = true
            return Array(state.clients.values)
        }
        for client in clients { await client.close() }
    }

    /// The slot of a command's key (its first argument); nil for a command that has no key.
    static func slot(of command: [[UInt8]]) -> Int? {
        guard command.count > 1 else { return nil }
        let name = String(decoding: command[0], as: UTF8.self).uppercased()
        return keylessCommands.contains(name) ? nil : RedisClusterSlot.slot(for: command[1])
    }

    /// Commands whose first argument is not a key.
    static let keylessCommands: Set<String> = [
        "ACL", "AUTH", "CLIENT", "CLUSTER", "COMMAND", "CONFIG", "DBSIZE", "ECHO", "FLUSHALL", "FLUSHDB", "HELLO",
        "INFO", "KEYS", "MEMORY", "PING", "SCAN", "SELECT", "TIME", "WAIT",
    ]

    /// One master's pipeline; a failure that may mean the map changed (a dead master) asks for a fresh one.
    private func call(_ node: RedisClusterNode, _ commands: [[[UInt8]]], deadline: Duration)
        async -> Result<[RESPValue], RedisError> {
        do {
            return .success(try await client(for: node).send(commands, deadline: deadline))
        } catch {
            refreshInBackground()
            return .failure(error)
        }
    }

    /// `reply`, or the reply of the node a `MOVED` or `ASK` points to, within the deadline from `start`.
    private func followRedirects(_ reply: RESPValue, command: [[UInt8]], from node: RedisClusterNode,
                                 start: ContinuousClock.Instant) async throws(RedisError) -> RESPValue {
        var reply = reply, asked = node
        for _ in 0...Self.maxRedirects {
            guard let redirect = RedisClusterRedirect(reply, asked: asked.host) else { return reply }
            let left = configuration.deadline - (ContinuousClock.now - start)
            guard left > .zero else { throw .timeout }
            if redirect.moved {
                state.withLock { $0.map?.move(redirect.slot, to: redirect.node) }
                refreshInBackground()
                reply = try await call(redirect.node, [command], deadline: left).get()[0]
            } else {
                reply = try await call(redirect.node, [[Array("ASKING".utf8)], command], deadline: left).get()[1]
            }
            asked = redirect.node
        }
        throw .unexpectedReply("more than \(Self.maxRedirects) cluster redirections")
    }

    /// The node's client, made on first use with the seeds' credentials and TLS.
    func client(for node: RedisClusterNode) -> RedisClient {
        state.withLock { state in
            if let client = state.clients[node] { return client }
            var endpoint = seeds[0]
            endpoint.host = node.host
            endpoint.port = node.port
            endpoint.database = 0
            endpoint.isCluster = false
            let client = RedisClient(endpoint: endpoint, configuration: configuration, group: group)
            state.clients[node] = client
            return client
        }
    }
}
