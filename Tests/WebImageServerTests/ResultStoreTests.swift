import Foundation
import RedisTestSupport
import TestSupport
import Testing
import WebImageRedis
@testable import WebImageServer

/// Proxies with separate disk caches and no Redis sharing results through a real S3-compatible store
/// (`moto_server`): objects named by a hash of the key, framed and checked as the Redis tier's values, expired by
/// their metadata; and a store that hangs or fails costs a request at most its deadline, then is not asked.
@Suite(.serialized) struct ResultStoreTests {
    typealias M = ResultStoreMetrics

    @Test func aResultMadeOnAIsServedByBWithoutTheOrigin() async throws {
        try await ResultStoreScene.with { scene in
            let a = try await scene.instance(), b = try await scene.instance()
            let made = try await a.get(0)
            #expect(made.status == 200)
            #expect(await a.writesLanded(1))
            // One object, named by the hash of the key under the prefix, with its expiry a week ahead.
            let name = try a.objectName(0)
            #expect(try await scene.moto.keys(bucket: ResultStoreScene.bucket) == [name])
            #expect(name.hasPrefix(ResultStoreScene.prefix + "/") && name.count == ResultStoreScene.prefix.count + 1 + 64)
            let object = try #require(try await scene.moto.object(name, bucket: ResultStoreScene.bucket))
            let expires = try #require(object.metadata["expires"].flatMap(Double.init))
            #expect(abs(expires - Date().timeIntervalSince1970 - 7 * 24 * 3600) < 120)
            #expect(SharedCacheEntry(decoding: Array(object.data))?.bytes == Array(made.body))

            let served = try await b.get(0)
            #expect(served.status == 200 && served.body == made.body)
            #expect(served.header("ETag") == made.header("ETag"))
            #expect(served.header("Last-Modified") == made.header("Last-Modified"))
            #expect(scene.originRequests(0) == 1)
            #expect(b.proxy.statistics.snapshot.encodes == 0)
            #expect(b.count(M.hits) == 1 && b.count(M.misses) == 0 && a.count(M.misses) == 1)
            // Promoted to B's memory: the next request does not ask the store; nor does B write it back.
            #expect(try await b.get(0).body == made.body)
            #expect(b.count(M.hits) == 1 && b.proxy.statistics.snapshot.memoryHits == 1)
            #expect(b.count(M.writes) == 0)
        }
    }

    @Test func aCorruptObjectIsAMissCountedAndRewritten() async throws {
        try await ResultStoreScene.with { scene in
            let a = try await scene.instance(), b = try await scene.instance()
            let made = try await a.get(1)
            #expect(await a.writesLanded(1))
            let name = try a.objectName(1)
            let object = try #require(try await scene.moto.object(name, bucket: ResultStoreScene.bucket))
            // One byte of the payload changed, the expiry kept: only the checksum can tell.
            var changed = object.data
            changed[changed.count / 2] ^= 0x01
            try await scene.moto.put(name, changed, bucket: ResultStoreScene.bucket, metadata: object.metadata)

            let served = try await b.get(1)
            #expect(served.status == 200 && served.body == made.body)
            #expect(scene.originRequests(1) == 2)
            #expect(b.proxy.statistics.snapshot.corruptStoreValues == 1)
            #expect(b.count(M.misses) == 1 && b.count(M.hits) == 0)
            #expect(try b.metrics.expectCounter(ImageProxyMetrics.corruptCacheValues,
                                                [(ImageProxyMetrics.Dimension.tier, "s3")]).totalValue == 1)
            // B wrote the fresh result over it: whole again.
            #expect(await b.writesLanded(1))
            let rewritten = try #require(try await scene.moto.object(name, bucket: ResultStoreScene.bucket))
            #expect(SharedCacheEntry(decoding: Array(rewritten.data))?.bytes == Array(made.body))
        }
    }

    @Test func anExpiredObjectIsAMiss() async throws {
        try await ResultStoreScene.with { scene in
            let a = try await scene.instance(), b = try await scene.instance()
            #expect(try await a.get(2).status == 200)
            #expect(await a.writesLanded(1))
            let name = try a.objectName(2)
            let object = try #require(try await scene.moto.object(name, bucket: ResultStoreScene.bucket))
            let past = Int(Date().timeIntervalSince1970) - 10
            try await scene.moto.put(name, object.data, bucket: ResultStoreScene.bucket, metadata: ["expires": "\(past)"])

            #expect(try await b.get(2).status == 200)
            #expect(scene.originRequests(2) == 2)
            #expect(b.count(M.misses) == 1 && b.count(M.hits) == 0)
            #expect(b.proxy.statistics.snapshot.corruptStoreValues == 0)
            // Written again with a new expiry.
            #expect(await b.writesLanded(1))
            let rewritten = try #require(try await scene.moto.object(name, bucket: ResultStoreScene.bucket))
            #expect(try #require(rewritten.metadata["expires"].flatMap(Int.init)) > past + 3600)
        }
    }

    /// Redis is asked first; a store hit is promoted to Redis, where an instance without the store finds it.
    @Test func aStoreHitIsPromotedToRedis() async throws {
        let redis = try await RedisServerProcess.start()
        defer { redis.stop() }
        try await ResultStoreScene.with { scene in
            let shared = SharedCacheConfiguration(endpoints: [redis.endpoint], redis: .init(client: .init(deadline: .seconds(5))))
            let a = try await scene.instance()
            let b = try await scene.instance(proxy: { $0.caches.shared = shared })
            let c = try await scene.instance(proxy: { $0.caches.shared = shared; $0.caches.resultStore = nil })
            let made = try await a.get(3)
            #expect(await a.writesLanded(1))
            #expect(try await b.get(3).body == made.body)
            #expect(b.count(M.hits) == 1)
            #expect(await eventually(timeout: 30) { b.proxy.results.shared?.pendingWrites == 0 })
            #expect(try await c.get(3).body == made.body)
            #expect(scene.originRequests(3) == 1)
        }
    }

    /// Writes over the bound are dropped and counted, never queued: with no room, nothing reaches the store.
    @Test func aWritePastTheBoundIsDroppedAndCounted() async throws {
        try await ResultStoreScene.with { scene in
            let a = try await scene.instance(result: { $0.maxPendingWrites = 0 })
            #expect(try await a.get(0).status == 200)
            #expect(a.count(M.writeFailures, reason: "queue_full") == 1 && a.count(M.writes) == 0)
            #expect(try await scene.moto.keys(bucket: ResultStoreScene.bucket).isEmpty)
        }
    }

    @Test func aHangingStoreCostsAtMostTheDeadlineThenIsNotAsked() async throws {
        try await Self.failingStore(TestResponse(behavior: .hang), reason: "timeout")
    }

    @Test func aStoreAnswering500CostsAtMostTheDeadlineThenIsNotAsked() async throws {
        let error = Data("<?xml version=\"1.0\"?><Error><Code>InternalError</Code></Error>".utf8)
        try await Self.failingStore(TestResponse(status: 500, body: error), reason: "status")
    }

    /// A loopback server answering every object with `response` as the store, with a 200 ms deadline and a breaker
    /// that opens after 3 failures for a minute: each request costs at most the deadline (2 s asserted: the machine
    /// may be loaded) and succeeds from the origin; once the breaker is open no request reaches the store.
    static func failingStore(_ response: TestResponse, reason: String) async throws {
        let store = try await TestHTTPServer.start()
        defer { Task { try? await store.shutdown() } }
        try await ResultStoreScene.with(images: 8) { scene in
            let instance = try await scene.instance(store: .init(endpoint: store.url("/"),
                                                                 credentials: .init(accessKeyID: "AKID", secretAccessKey: "secret")),
                                                    deadline: .milliseconds(200),
                                                    result: { $0.breakerOpenDuration = .seconds(60) })
            let objects = try (0..<8).map { "/\(ResultStoreScene.bucket)/" + (try instance.objectName($0)) }
            for object in objects { store.route(object, response) }
            var openedAfter: Int?
            for index in 0..<8 {
                let start = ContinuousClock.now
                let answer = try await instance.get(index)
                let elapsed = ContinuousClock.now - start
                #expect(answer.status == 200, "image \(index)")
                #expect(elapsed < .seconds(2), "image \(index) took \(elapsed)")
                if openedAfter == nil, instance.available == 0 { openedAfter = index }
            }
            // The lookups of images 0 to 2 failed (writes that failed in between may have opened it sooner); the
            // store heard nothing of any image asked for after that.
            let opened = try #require(openedAfter)
            #expect(opened <= 2)
            for index in (opened + 1)..<8 { #expect(store.requests(for: objects[index]).isEmpty, "image \(index)") }
            #expect(instance.count(M.errors, reason: "unavailable") == Int64(7 - opened))
            #expect(instance.count(M.errors, reason: reason) >= 1)
            #expect(instance.count(M.hits) == 0 && instance.count(M.writes) == 0)
            #expect((0..<8).allSatisfy { scene.originRequests($0) == 1 })
            #expect(try await instance.harness.get("/ready").status == 200)
        }
    }
}
