import Foundation
import TestSupport
import WebImageRedis

/// A real Redis Cluster on loopback ports: `redis-server --cluster-enabled yes` × (masters × (1 + replicas)), joined
/// by `redis-cli --cluster create … --cluster-replicas N`, with a node timeout of one second so a killed master's
/// replica takes over within a few. Each node's cluster bus has a free port of its own (`--cluster-port`). With
/// ``Security``, clients, the bus and replication speak TLS and log in as an ACL user (the default user off).
public final class RedisClusterProcess: Sendable {
    public let servers: [RedisServerProcess]
    private let directory: URL
    private let security: Security?

    /// TLS with the test CA's certificates, and the one user every client, replica and `redis-cli` logs in as.
    public struct Security: Sendable {
        public var certificates: TestCertificates
        public var user: String
        public var password: String

        public init(certificates: TestCertificates, user: String, password: String) {
            self.certificates = certificates
            self.user = user
            self.password = password
        }
    }

    private init(servers: [RedisServerProcess], directory: URL, security: Security?) {
        self.servers = servers
        self.directory = directory
        self.security = security
    }

    public static func start(masters: Int = 3, replicas: Int = 1, security: Security? = nil) async throws -> RedisClusterProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let secured = security.map { security in
            ["--tls-cluster", "yes", "--tls-replication", "yes", "--user", "default", "off",
             "--user", security.user, "on", ">\(security.password)", "~*", "&*", "+@all",
             "--masteruser", security.user, "--masterauth", security.password]
        } ?? []
        var servers: [RedisServerProcess] = []
        do {
            for index in 0..<masters * (1 + replicas) {
                servers.append(try await RedisServerProcess.start(tls: security.map { .valid($0.certificates) }, arguments: [
                    // A replica takes over however long its master was idle (the default refuses after ~20 s).
                    "--cluster-enabled", "yes", "--cluster-node-timeout", "1000", "--cluster-replica-validity-factor", "0",
                    "--cluster-port", "\(try RedisServerProcess.freePort())",
                    "--cluster-config-file", directory.appendingPathComponent("nodes-\(index).conf").path] + secured))
            }
            let cluster = RedisClusterProcess(servers: servers, directory: directory, security: security)
            _ = try await cluster.redisCLI(["--cluster", "create"] + servers.map { "127.0.0.1:\($0.port)" }
                                               + ["--cluster-replicas", "\(replicas)", "--cluster-yes"])
            guard await cluster.waitUntilHealthy(masters: masters) else {
                throw RedisError.connectionFailed("the cluster did not come up")
            }
            return cluster
        } catch {
            servers.forEach { $0.stop() }
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// A client of one node, as the cluster wants it (TLS and the user with ``Security``).
    public func client(port: Int) -> RedisClient {
        RedisClient(endpoint: RedisEndpoint(host: "127.0.0.1", port: port, username: security?.user,
                                            password: security?.password, usesTLS: security != nil),
                    configuration: .init(deadline: .seconds(5), breakerFailureThreshold: 1_000,
                                         tls: RedisTLS(trustRoots: security.map { .file($0.certificates.caFile) } ?? .system)))
    }

    /// Kills every node and removes their files.
    public func stop() {
        servers.forEach { $0.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A node as `CLUSTER NODES` lists it.
    public struct Node: Sendable, Hashable {
        public var id: String
        public var port: Int
        public var isMaster: Bool
        /// Failed (`fail` or `fail?`) or disconnected.
        public var isDown: Bool
        /// The slots it serves.
        public var ranges: [ClosedRange<Int>]

        public var slotCount: Int { ranges.reduce(0) { $0 + $1.count } }

        public func serves(_ slot: Int) -> Bool { ranges.contains { $0.contains(slot) } }
    }

    /// `CLUSTER NODES` asked of the first node still running.
    public func nodes() async throws -> [Node] {
        let text = try await ask(["CLUSTER", "NODES"])
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 8, let address = fields[1].split(separator: "@").first,
                  let port = address.split(separator: ":").last.flatMap({ Int($0) }) else { return nil }
            let flags = fields[2].split(separator: ",")
            // `START-END` or one slot; `[SLOT->-ID]` (a migration under way) is not served yet.
            let ranges = fields.dropFirst(8).compactMap { range -> ClosedRange<Int>? in
                let bounds = range.split(separator: "-").compactMap { Int($0) }
                return bounds.count == 2 ? bounds[0]...bounds[1] : bounds.count == 1 ? bounds[0]...bounds[0] : nil
            }
            return Node(id: String(fields[0]), port: port, isMaster: flags.contains("master"),
                        isDown: flags.contains { $0.hasPrefix("fail") } || fields[7] == "disconnected", ranges: ranges)
        }
    }

    /// Kills the node on `port` with SIGKILL.
    public func kill(port: Int) {
        servers.first { $0.port == port }?.stop()
    }

    /// Moves `slots` slots from one master to another with `redis-cli --cluster reshard` (keys migrated with
    /// `MIGRATE`, clients redirected with `ASK` meanwhile).
    public func reshard(from source: Node, to target: Node, slots: Int) async throws {
        _ = try await redisCLI(["--cluster", "reshard", "127.0.0.1:\(target.port)", "--cluster-from", source.id,
                                "--cluster-to", target.id, "--cluster-slots", "\(slots)", "--cluster-yes"])
    }

    /// Waits until every running node says `cluster_state:ok` and `masters` masters serve all 16,384 slots.
    public func waitUntilHealthy(masters: Int, timeout: Duration = .seconds(60)) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            var healthy = true
            for server in servers where server.isRunning {
                let info = try? await ask(["CLUSTER", "INFO"], port: server.port)
                healthy = healthy && info?.contains("cluster_state:ok") == true
            }
            if healthy, let nodes = try? await nodes() {
                let serving = nodes.filter { $0.isMaster && !$0.isDown && $0.slotCount > 0 }
                if serving.count == masters, serving.map(\.slotCount).reduce(0, +) == RedisClusterSlot.count { return true }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// A command's text reply from the first node still running.
    private func ask(_ command: [String]) async throws -> String {
        guard let server = servers.first(where: \.isRunning) else { throw RedisError.unavailable }
        return try await ask(command, port: server.port)
    }

    private func ask(_ command: [String], port: Int) async throws -> String {
        let client = client(port: port)
        defer { Task { await client.close() } }
        guard case .bulkString(let bytes?) = try await client.command(command) else {
            throw RedisError.unexpectedReply("\(command[0]) answered no text")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func redisCLI(_ arguments: [String]) async throws -> String {
        let access = security.map { ["--tls", "--cacert", $0.certificates.caFile, "--user", $0.user, "--pass", $0.password,
                                     "--no-auth-warning"] } ?? []
        let run = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/redis-cli"), access + arguments, timeout: 120)
        guard run.exitedNormally, run.status == 0 else {
            throw RedisError.unexpectedReply("redis-cli \(arguments.joined(separator: " ")): \(run.stdout) \(run.stderr)")
        }
        return run.stdout
    }
}
