import Foundation
import RedisTestSupport
import Synchronization
import Testing
import WebImage
@testable import WebImageRedis

/// The shared tier over a real Redis Cluster of 3 masters and 3 replicas on loopback ports: values shared by two
/// clients seeded from different nodes, a master killed with SIGKILL and replaced by its replica while calls stay
/// within the deadline, and slots resharded under load with nothing lost and no wrong bytes.
@Suite(.serialized) struct RedisClusterTests {
    static let png = Array((try? RedisImageCacheTests.png(3, 2)) ?? Data())

    /// A value per key: the ETag names it, and the checksum covers the ETag, so a value read under another key
    /// cannot pass for this one's.
    static func entry(_ index: Int) -> SharedCacheEntry {
        SharedCacheEntry(bytes: png, format: .png, etag: "\"value-\(index)\"")
    }

    static func cache(seed port: Int, deadline: Duration) -> RedisImageCache {
        RedisImageCache(endpoints: [RedisEndpoint(host: "127.0.0.1", port: port, isCluster: true)],
                        configuration: RedisImageCache.Configuration(client: .init(
                            deadline: deadline, breakerFailureThreshold: 3, breakerOpenDuration: .seconds(1))))
    }

    @Test func twoClientsShareValuesOverEveryMaster() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        // One seeded from the first node, one from the last (a replica: its map is the same).
        let writer = Self.cache(seed: cluster.servers[0].port, deadline: .seconds(5))
        let reader = Self.cache(seed: cluster.servers[5].port, deadline: .seconds(5))
        for index in 0..<300 { try await writer.store(Self.entry(index), forKey: "k\(index)") }
        for index in 0..<300 { #expect(try await reader.read(forKey: "k\(index)") == .entry(Self.entry(index))) }
        #expect(try await reader.read(forKey: "absent") == .absent)
        let masters = try await cluster.nodes().filter(\.isMaster)
        #expect(masters.count == 3)
        for master in masters {
            let client = cluster.client(port: master.port)
            guard case .integer(let count) = try await client.command(["DBSIZE"]) else { throw RedisError.timeout }
            #expect(count > 50, "master \(master.port) holds \(count) of 300")
            for key in ["swi:k1", "{user1000}.following", "a{b}c", "foo{}{bar}", "\u{e9}t\u{e9}"] {
                #expect(try await client.command(["CLUSTER", "KEYSLOT", key]) == .integer(RedisClusterSlot.slot(for: key)))
            }
            await client.close()
        }
        #expect(writer.isAvailable && reader.isAvailable)
        await writer.close()
        await reader.close()
    }

    /// `rediss-cluster://USER:PASSWORD@`: TLS to every node the map names (the nodes' bus and replication too)
    /// and the ACL user on each (the default user is off).
    @Test func aTLSClusterWithAUser() async throws {
        let certificates = try await TestCertificates.shared()
        let cluster = try await RedisClusterProcess.start(security: .init(certificates: certificates, user: "alice",
                                                                           password: RedisTLSTests.password))
        defer { cluster.stop() }
        let url = "rediss-cluster://alice:\(RedisTLSTests.escapedPassword)@localhost:\(cluster.servers[0].port)"
        let cache = RedisImageCache(endpoints: try #require(RedisEndpoint.endpoints(url: url)),
                                    configuration: .init(client: .init(deadline: .seconds(5),
                                                                       tls: RedisTLS(trustRoots: .file(certificates.caFile)))))
        for index in 0..<100 { try await cache.store(Self.entry(index), forKey: "k\(index)") }
        for index in 0..<100 { #expect(try await cache.read(forKey: "k\(index)") == .entry(Self.entry(index))) }
        for master in try await cluster.nodes() where master.isMaster {
            let client = cluster.client(port: master.port)
            guard case .integer(let count) = try await client.command(["DBSIZE"]) else { throw RedisError.timeout }
            #expect(count > 10, "master \(master.port) holds \(count) of 100")
            await client.close()
        }
        await cache.close()
    }

    /// Reads and writes keep finishing within the deadline (+ 2 s for a loaded machine) while a master is down
    /// (its keys are misses), and once its replica has taken over, values written by one client reach the other.
    @Test func aKilledMasterIsReplacedByItsReplica() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let deadline = Duration.milliseconds(500)
        let writer = Self.cache(seed: cluster.servers[0].port, deadline: deadline)
        let reader = Self.cache(seed: cluster.servers[1].port, deadline: deadline)
        // A bare client of the cluster, to see which nodes it keeps connections to.
        let probe = RedisClusterClient(seeds: [RedisEndpoint(host: "127.0.0.1", port: cluster.servers[2].port)],
                                       configuration: .init(deadline: deadline))
        func probeAll() async -> Bool {
            var all = true
            for index in 0..<200 where (try? await probe.command(["GET", "k\(index)"])) == nil { all = false }
            return all
        }
        func probePorts() -> Set<Int> { probe.state.withLock { Set($0.clients.keys.map(\.port)) } }
        for index in 0..<200 { try await writer.store(Self.entry(index), forKey: "k\(index)") }
        #expect(await probeAll())
        let victim = try #require(try await cluster.nodes().first { $0.isMaster && $0.port != cluster.servers[0].port })
        #expect(probePorts().contains(victim.port))
        let slowest = Mutex(Duration.zero), misses = Mutex(0)
        let load = Task {
            while !Task.isCancelled {
                for index in 0..<200 where !Task.isCancelled {
                    let start = ContinuousClock.now
                    if (try? await reader.read(forKey: "k\(index)")) != .entry(Self.entry(index)) { misses.withLock { $0 += 1 } }
                    let took = ContinuousClock.now - start
                    slowest.withLock { $0 = max($0, took) }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        cluster.kill(port: victim.port)
        #expect(await cluster.waitUntilHealthy(masters: 3))
        // Sharing resumes: every key written again by one client is read by the other.
        var shared = false
        let end = ContinuousClock.now + .seconds(30)
        while !shared, ContinuousClock.now < end {
            var all = true
            for index in 0..<200 {
                let value = SharedCacheEntry(bytes: Self.png, format: .png, etag: "\"again-\(index)\"")
                guard (try? await writer.store(value, forKey: "again\(index)")) != nil,
                      (try? await reader.read(forKey: "again\(index)")) == .entry(value) else {
                    all = false
                    break
                }
            }
            shared = all
            if !shared { try await Task.sleep(for: .milliseconds(200)) }
        }
        load.cancel()
        _ = await load.value
        #expect(shared)
        #expect(misses.withLock { $0 } > 0, "no call went to the dead master")
        #expect(slowest.withLock { $0 } < deadline + .seconds(2), "a call took \(slowest.withLock { $0 })")
        // The dead master's connections are closed once a map without it is read; the promoted replica's open.
        let masters = Set(try await cluster.nodes().filter { $0.isMaster && !$0.isDown }.map(\.port))
        let settled = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < settled, !(await probeAll() && probePorts() == masters) {
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(probePorts() == masters)
        #expect(!probePorts().contains(victim.port))
        await probe.close()
        await writer.close()
        await reader.close()
    }

    /// A slot half migrated by hand (`CLUSTER SETSLOT … MIGRATING/IMPORTING`, one key `MIGRATE`d): the moved key
    /// is read through `ASK` and `ASKING`, the one left behind from the old master, a new key lands on the new one;
    /// once the slot is the new master's, `MOVED` sends every call there.
    @Test func askAndMovedAreFollowedDuringAMigration() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let cache = Self.cache(seed: cluster.servers[0].port, deadline: .seconds(5))
        let slot = RedisClusterSlot.slot(for: "tag")
        try await cache.store(Self.entry(1), forKey: "{tag}moved")
        try await cache.store(Self.entry(2), forKey: "{tag}stays")
        let masters = try await cluster.nodes().filter(\.isMaster)
        let source = try #require(masters.first { $0.serves(slot) })
        let target = try #require(masters.first { $0.id != source.id })
        func on(_ node: RedisClusterProcess.Node, _ command: [String]) async throws {
            let client = cluster.client(port: node.port)
            _ = try await client.command(command)
            await client.close()
        }
        try await on(target, ["CLUSTER", "SETSLOT", "\(slot)", "IMPORTING", source.id])
        try await on(source, ["CLUSTER", "SETSLOT", "\(slot)", "MIGRATING", target.id])
        try await on(source, ["MIGRATE", "127.0.0.1", "\(target.port)", "swi:{tag}moved", "0", "5000"])
        #expect(try await cache.read(forKey: "{tag}moved") == .entry(Self.entry(1)))
        #expect(try await cache.read(forKey: "{tag}stays") == .entry(Self.entry(2)))
        try await cache.store(Self.entry(3), forKey: "{tag}new")
        #expect(try await cache.read(forKey: "{tag}new") == .entry(Self.entry(3)))
        try await on(source, ["MIGRATE", "127.0.0.1", "\(target.port)", "swi:{tag}stays", "0", "5000"])
        for node in masters { try await on(node, ["CLUSTER", "SETSLOT", "\(slot)", "NODE", target.id]) }
        for (index, key) in [(1, "{tag}moved"), (2, "{tag}stays"), (3, "{tag}new")] {
            #expect(try await cache.read(forKey: key) == .entry(Self.entry(index)), "\(key)")
        }
        await cache.close()
    }

    /// `redis-cli --cluster reshard` moves a thousand slots between masters while one client reads every key and
    /// another writes more: `MOVED` and `ASK` are followed, no read is another key's value or a torn one, and
    /// afterwards every key written is there.
    @Test func reshardingUnderLoadLosesNothing() async throws {
        let cluster = try await RedisClusterProcess.start()
        defer { cluster.stop() }
        let writer = Self.cache(seed: cluster.servers[0].port, deadline: .seconds(2))
        let reader = Self.cache(seed: cluster.servers[3].port, deadline: .seconds(2))
        for index in 0..<1_000 { try await writer.store(Self.entry(index), forKey: "k\(index)") }
        let wrong = Mutex<[String]>([]), written = Mutex(Set(0..<1_000))
        let readers = Task {
            while !Task.isCancelled {
                for index in 0..<1_000 where !Task.isCancelled {
                    switch try? await reader.read(forKey: "k\(index)") {
                    case .entry(let entry) where entry != Self.entry(index): wrong.withLock { $0.append("k\(index): another value") }
                    case .rejected: wrong.withLock { $0.append("k\(index): rejected") }
                    default: break
                    }
                }
            }
        }
        let writers = Task {
            for index in 1_000..<2_000 where !Task.isCancelled {
                if (try? await writer.store(Self.entry(index), forKey: "k\(index)")) != nil { written.withLock { _ = $0.insert(index) } }
            }
        }
        let nodes = try await cluster.nodes().filter(\.isMaster)
        try await cluster.reshard(from: nodes[0], to: nodes[1], slots: 1_000)
        writers.cancel()
        readers.cancel()
        _ = await (writers.value, readers.value)
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0 }.prefix(5))")
        let after = try await cluster.nodes().filter(\.isMaster)
        #expect(after.first { $0.id == nodes[1].id }?.slotCount == nodes[1].slotCount + 1_000)
        for index in written.withLock({ $0 }).sorted() {
            #expect(try await reader.read(forKey: "k\(index)") == .entry(Self.entry(index)), "k\(index)")
        }
        await writer.close()
        await reader.close()
    }
}
