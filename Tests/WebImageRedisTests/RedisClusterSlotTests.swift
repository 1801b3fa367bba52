import Testing
@testable import WebImageRedis

/// Key slots, the slot map and redirections as the cluster specification writes them.
@Suite struct RedisClusterSlotTests {
    /// The specification's check value and slots `CLUSTER KEYSLOT` gives.
    @Test func slotsAreRedisClusters() {
        #expect(CRC16.checksum(Array("123456789".utf8)) == 0x31C3)
        #expect(RedisClusterSlot.slot(for: "foo") == 12_182)
        #expect(RedisClusterSlot.slot(for: "bar") == 5_061)
        #expect(RedisClusterSlot.slot(for: "") == 0)
        #expect(RedisClusterSlot.slot(for: "{user1000}.following") == RedisClusterSlot.slot(for: "user1000"))
        #expect(RedisClusterSlot.slot(for: "{user1000}.followers") == RedisClusterSlot.slot(for: "user1000"))
        // An empty tag hashes the whole key; only the first tag counts.
        #expect(RedisClusterSlot.slot(for: "foo{}{bar}") == Int(CRC16.checksum(Array("foo{}{bar}".utf8))) & 16_383)
        #expect(RedisClusterSlot.slot(for: "foo{{bar}}zap") == RedisClusterSlot.slot(for: "{bar"))
        #expect(RedisClusterSlot.slot(for: "foo{bar}{zap}") == RedisClusterSlot.slot(for: "bar"))
    }

    @Test func keylessCommandsHaveNoSlot() {
        #expect(RedisClusterClient.slot(of: [Array("GET".utf8), Array("foo".utf8)]) == 12_182)
        #expect(RedisClusterClient.slot(of: [Array("PING".utf8)]) == nil)
        #expect(RedisClusterClient.slot(of: [Array("cluster".utf8), Array("SLOTS".utf8)]) == nil)
    }

    @Test func aSlotsReplyIsAMapAndMovedChangesIt() throws {
        func node(_ host: String, _ port: Int) -> RESPValue {
            .array([.bulkString(Array(host.utf8)), .integer(port), .bulkString(Array("id".utf8))])
        }
        let reply = RESPValue.array([.array([.integer(0), .integer(5460), node("10.0.0.1", 7000), node("10.0.0.4", 7003)]),
                                     .array([.integer(5461), .integer(10922), node("", 7001)]),
                                     .array([.integer(10923), .integer(16383), node("10.0.0.3", 7002)])])
        var map = try #require(RedisClusterMap(slots: reply, asked: "seed.example"))
        #expect(map.masters == [RedisClusterNode(host: "10.0.0.1", port: 7000), RedisClusterNode(host: "seed.example", port: 7001),
                                RedisClusterNode(host: "10.0.0.3", port: 7002)])
        #expect(map.master(of: 5460)?.port == 7000 && map.master(of: 5461)?.port == 7001 && map.master(of: 16383)?.port == 7002)
        map.move(5460, to: RedisClusterNode(host: "10.0.0.9", port: 7009))
        #expect(map.master(of: 5460) == RedisClusterNode(host: "10.0.0.9", port: 7009) && map.master(of: 5459)?.port == 7000)
        let partial = RESPValue.array([.array([.integer(0), .integer(99), node("h", 1)])])
        #expect(try #require(RedisClusterMap(slots: partial, asked: "x")).master(of: 100) == nil)
        for bad: RESPValue in [.array([]), .simpleString("OK"), .array([.array([.integer(5), .integer(2), node("h", 1)])]),
                               .array([.array([.integer(0), .integer(16384), node("h", 1)])])] {
            #expect(RedisClusterMap(slots: bad, asked: "x") == nil)
        }
    }

    @Test func redirectionsParse() {
        #expect(RedisClusterRedirect(.error("MOVED 3999 127.0.0.1:6381"), asked: "a")
            == RedisClusterRedirect(moved: true, slot: 3999, node: RedisClusterNode(host: "127.0.0.1", port: 6381)))
        #expect(RedisClusterRedirect(.error("ASK 3999 :6381"), asked: "a")
            == RedisClusterRedirect(moved: false, slot: 3999, node: RedisClusterNode(host: "a", port: 6381)))
        #expect(RedisClusterRedirect(.error("MOVED 1 ::1:7000"), asked: "a")?.node == RedisClusterNode(host: "::1", port: 7000))
        for other: RESPValue in [.error("ERR wrong"), .error("MOVED 16384 h:1"), .error("MOVED 1 ?:1"), .simpleString("MOVED 1 h:1")] {
            #expect(RedisClusterRedirect(other, asked: "a") == nil)
        }
    }

    @Test func clusterURLsNameTheirSeeds() {
        #expect(RedisEndpoint.endpoints(url: "rediss-cluster://alice:p%40ss@a.example:7000,b.example:7001")
            == [RedisEndpoint(host: "a.example", port: 7000, username: "alice", password: "p@ss", usesTLS: true, isCluster: true),
                RedisEndpoint(host: "b.example", port: 7001, username: "alice", password: "p@ss", usesTLS: true, isCluster: true)])
        #expect(RedisEndpoint(url: "redis-cluster://h:7000")?.description == "redis-cluster://h:7000")
        for bad in ["redis-cluster://h:7000/1", "redis://a:1,b:2", "redis-cluster://a:1,", "redis-cluster://"] {
            #expect(RedisEndpoint.endpoints(url: bad) == nil, "\(bad)")
        }
        #expect(RedisEndpoint(url: "redis-cluster://a:1,b:2") == nil)
    }
}
