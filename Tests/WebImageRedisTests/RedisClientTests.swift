import Foundation
import RedisTestSupport
import Testing
@testable import WebImageRedis

/// The client against a real `redis-server`, and against broken and hung servers.
@Suite(.serialized) struct RedisClientTests {
    @Test func setGetDeletePingAndExpiry() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(endpoint: server.endpoint, configuration: .init(deadline: .seconds(2)))
        try await client.ping()
        #expect(try await client.get("missing") == nil)
        try await client.set("k", value: [0, 1, 2, 255])
        #expect(try await client.get("k") == [0, 1, 2, 255])
        #expect(try await client.delete(["k", "other"]) == 1)
        #expect(try await client.get("k") == nil)
        try await client.set("short", value: [1], expiry: .milliseconds(300))
        guard case .integer(let remaining) = try await client.command(["PTTL", "short"]) else {
            Issue.record("PTTL did not answer an integer")
            return
        }
        #expect(remaining <= 300)
        var expired = false
        for _ in 0..<100 where !expired {
            try await Task.sleep(for: .milliseconds(50))
            expired = try await client.get("short") == nil
        }
        #expect(expired)
        await client.close()
    }

    @Test func pipelinedAndConcurrentCallsGetTheirOwnReplies() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(endpoint: server.endpoint, configuration: .init(deadline: .seconds(5)))
        let sets = (0..<50).map { [Array("SET".utf8), Array("key\($0)".utf8), Array("value\($0)".utf8)] }
        let replies = try await client.send(sets)
        #expect(replies.count == 50 && replies.allSatisfy { $0 == .simpleString("OK") })
        let values = try await withThrowingTaskGroup(of: (Int, [UInt8]?).self) { group in
            for index in 0..<200 { group.addTask { (index, try await client.get("key\(index % 50)")) } }
            var values: [Int: [UInt8]?] = [:]
            for try await (index, value) in group { values[index] = value }
            return values
        }
        #expect(values.count == 200 && values.allSatisfy { $0.value == Array("value\($0.key % 50)".utf8) })
        await client.close()
    }

    @Test func authAndDatabaseSelection() async throws {
        let server = try await RedisServerProcess.start(password: "s3cret")
        defer { server.stop() }
        var endpoint = server.endpoint
        endpoint.database = 3
        let client = RedisClient(endpoint: endpoint, configuration: .init(deadline: .seconds(2)))
        try await client.set("k", value: [7])
        #expect(try await client.command(["DBSIZE"]) == .integer(1))
        let wrong = RedisClient(endpoint: RedisEndpoint(host: "127.0.0.1", port: server.port, password: "nope"),
                                configuration: .init(deadline: .seconds(2)))
        await #expect(throws: RedisError.self) { try await wrong.get("k") }
        let none = RedisClient(endpoint: RedisEndpoint(host: "127.0.0.1", port: server.port), configuration: .init(deadline: .seconds(2)))
        await #expect(throws: RedisError.self) { try await none.get("k") }
        await client.close()
        await wrong.close()
        await none.close()
    }

    @Test func garbageFromTheServerIsATypedErrorAndTheClientRecovers() async throws {
        let fake = try await FakeRedisServer.start(reply: Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
        let client = RedisClient(endpoint: fake.endpoint, configuration: .init(deadline: .seconds(2), breakerFailureThreshold: 100))
        for _ in 0..<3 {
            await #expect(throws: RedisError.protocolError("unknown reply type byte 72")) { try await client.get("k") }
        }
        let huge = try await FakeRedisServer.start(reply: Array("$999999999999\r\n".utf8))
        let greedy = RedisClient(endpoint: huge.endpoint, configuration: .init(deadline: .seconds(2)))
        await #expect(throws: RedisError.self) { try await greedy.get("k") }
        await client.close()
        await greedy.close()
        await fake.stop()
        await huge.stop()
    }

    @Test func callsLostWithTheirConnectionCountOnceForTheBreaker() async throws {
        let hung = try await FakeRedisServer.start(reply: nil)
        let client = RedisClient(endpoint: hung.endpoint,
                                 configuration: .init(connections: 1, deadline: .milliseconds(200),
                                                      breakerFailureThreshold: 2, breakerOpenDuration: .seconds(30)))
        // Eight calls pipelined on one connection: the first timeout closes it and fails the rest.
        let failures = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { (try? await client.get("k")) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 8)
        #expect(client.isAvailable)
        // A second lost connection is a second failure: the breaker opens.
        await #expect(throws: RedisError.timeout) { try await client.get("k") }
        #expect(!client.isAvailable)
        await client.close()
        await hung.stop()
    }

    @Test func aHungOrDeadServerCostsTheDeadlineThenTheBreakerOpens() async throws {
        let hung = try await FakeRedisServer.start(reply: nil)
        let client = RedisClient(endpoint: hung.endpoint,
                                 configuration: .init(deadline: .milliseconds(100), breakerFailureThreshold: 2,
                                                      breakerOpenDuration: .seconds(30)))
        let start = ContinuousClock.now
        await #expect(throws: RedisError.timeout) { try await client.get("k") }
        await #expect(throws: RedisError.timeout) { try await client.get("k") }
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(!client.isAvailable)
        await #expect(throws: RedisError.unavailable) { try await client.get("k") }
        let dead = RedisClient(endpoint: RedisEndpoint(host: "127.0.0.1", port: try RedisServerProcess.freePort()),
                               configuration: .init(deadline: .seconds(2)))
        await #expect(throws: RedisError.self) { try await dead.get("k") }
        await client.close()
        await dead.close()
        await hung.stop()
    }

    @Test func aBreakerClosesAgainAfterASuccessfulTrial() {
        var breaker = CircuitBreaker(failureThreshold: 2, openDuration: .seconds(1))
        let start = ContinuousClock.now
        breaker.recordFailure(at: start)
        let stillClosed = breaker.allowsCall(at: start)
        breaker.recordFailure(at: start)
        let whileOpen = breaker.allowsCall(at: start + .milliseconds(500))
        let trial = breaker.allowsCall(at: start + .seconds(2))
        let secondDuringTrial = breaker.allowsCall(at: start + .seconds(2))
        breaker.recordSuccess()
        let afterSuccess = breaker.allowsCall(at: start + .seconds(2))
        #expect(stillClosed && !whileOpen && trial && !secondDuringTrial && afterSuccess && !breaker.isOpen)
    }

    @Test func endpointsParseFromURLs() {
        #expect(RedisEndpoint(url: "redis://cache:6380/2") == RedisEndpoint(host: "cache", port: 6380, database: 2))
        #expect(RedisEndpoint(url: "redis://:pw@127.0.0.1") == RedisEndpoint(host: "127.0.0.1", password: "pw"))
        #expect(RedisEndpoint(url: "redis://[::1]:7000") == RedisEndpoint(host: "::1", port: 7000))
        #expect(RedisEndpoint(url: "rediss://alice:p%40ss%3Aw%2Frd%25@cache.example:6380/1")
            == RedisEndpoint(host: "cache.example", port: 6380, database: 1, username: "alice", password: "p@ss:w/rd%",
                             usesTLS: true))
        #expect(RedisEndpoint(url: "rediss://default:a:b@c@h") == RedisEndpoint(host: "h", username: "default",
                                                                               password: "a:b@c", usesTLS: true))
        #expect(RedisEndpoint(url: "redis://:@h") == RedisEndpoint(host: "h"))
        for bad in ["http://x", "redis://", "redis://h:0", "redis://h:99999", "redis://h/x", "redis://h/-1", "rediss://",
                    "redis://alice@h", "redis://alice:@h", "redis://:%zz@h", "redis://%zz:pw@h"] {
            #expect(RedisEndpoint(url: bad) == nil, "\(bad)")
        }
    }

    /// Neither the description nor any name the tier shows carries the user's password.
    @Test func descriptionsLeaveThePasswordOut() {
        let endpoint = RedisEndpoint(url: "rediss://alice:hunter2@[::1]:6380/3")
        #expect(endpoint?.description == "rediss://[::1]:6380/3")
        #expect(RedisEndpoint(url: "redis://:hunter2@h")?.description == "redis://h:6379/0")
        #expect(RedisEndpoint(url: "rediss://:hunter2@h")?.ringName == "redis://h:6379/0")
    }
}
