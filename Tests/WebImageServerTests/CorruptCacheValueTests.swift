import Foundation
import MetricsTestKit
import RedisTestSupport
import TestSupport
import Testing
import WebImage
import WebImageRedis
@testable import WebImageServer

/// Stored values whose bytes changed after they were written (same length, header intact): in the shared
/// Redis tier and in the service's disk caches each is a miss, counted, and replaced by the fresh value; the
/// answer is the right image, never the changed bytes or a 422.
@Suite(.serialized) struct CorruptCacheValueTests {
    /// The metric's label, spelled out.
    static let corrupt = "swiftwebimage_serve_corrupt_cache_values_total"

    /// Overwrites the last quarter (at most 256 bytes) of `bytes` with other bytes.
    static func changedTail(_ bytes: [UInt8], seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed), changed = bytes
        for index in max(0, bytes.count - min(256, bytes.count / 4))..<bytes.count {
            changed[index] = bytes[index] ^ UInt8(truncatingIfNeeded: random.next() | 1)
        }
        return changed
    }

    @Test func changedRedisValuesAreMissesAndAreRewrittenValid() async throws {
        try await SharedTierScene.with { scene in
            let a = try await scene.instance()
            let made = try await a.get(0)
            #expect(made.status == 200)
            #expect(await a.writesLanded(results: 1, sources: 1))
            let client = RedisClient(endpoint: scene.endpoints[0], configuration: .init(deadline: .seconds(2)))
            defer { Task { await client.close() } }
            guard case .array(let listed?) = try await client.command(["KEYS", "swi:*"]) else {
                Issue.record("KEYS did not answer an array")
                return
            }
            let keys = listed.compactMap { value -> String? in
                if case .bulkString(let bytes?) = value { String(decoding: bytes, as: UTF8.self) } else { nil }
            }
            #expect(keys.count == 2)
            for (index, key) in keys.enumerated() {
                let value = try #require(try await client.get(key))
                try await client.set(key, value: Self.changedTail(value, seed: UInt64(index + 1)))
            }

            let proxyMetrics = TestMetrics()
            let c = try await scene.instance(proxy: { $0.instrumentation.metricsFactory = proxyMetrics })
            let served = try await c.get(0)
            #expect(served.status == 200 && served.body == made.body)
            // Another size of the same source: made from the origin's bytes, not the changed ones.
            #expect(await c.writesLanded(results: 1, sources: 1))
            let other = try await c.harness.get(c.harness.signedPath("w:10", source: "/img0.jpg"))
            #expect(other.status == 200, "\(other.text)")
            #expect(try other.image().pixelSize.width == 10)
            #expect(scene.originRequests(0) == 2)
            #expect(try proxyMetrics.expectCounter(Self.corrupt, [("tier", "shared")]).totalValue == 2)
            #expect(c.count(SharedCacheMetrics.misses, .result) >= 1)
            // Both values were written again, whole: any instance reads them now.
            for key in keys {
                let value = try #require(try await client.get(key))
                let entry = try #require(SharedCacheEntry(decoding: value), "\(key)")
                if key.contains(":r:") { #expect(Data(entry.bytes) == made.body) }
            }
        }
    }

    @Test func changedDiskResultsAndSourcesAreMissesRemovedAndRewritten() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let metrics = TestMetrics()
        let configuration = ProxyHarness.configuration {
            $0.caches.directory = directory
            $0.caches.memoryBytes = 0
            $0.instrumentation.metricsFactory = metrics
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(60, 40))
            let path = harness.signedPath("w:20", source: "/a.jpg")
            let made = try await harness.get(path)
            #expect(made.status == 200)
            #expect(try await harness.get(path).body == made.body)
            #expect(harness.proxy.statistics.snapshot.diskHits == 1)
            for folder in ["results", "sources"] {
                for file in try Self.entries(directory.appendingPathComponent(folder)) {
                    try Self.changeTail(of: file)
                }
            }

            let served = try await harness.get(path)
            #expect(served.status == 200 && served.body == made.body)
            #expect(harness.proxy.statistics.snapshot.encodes == 2)
            let other = try await harness.get(harness.signedPath("w:10", source: "/a.jpg"))
            #expect(other.status == 200, "\(other.text)")
            #expect(try other.image().pixelSize.width == 10)
            #expect(harness.origin.requestCount(for: "/a.jpg") == 2)
            #expect(try metrics.expectCounter(Self.corrupt, [("tier", "disk")]).totalValue == 2)
            // Rewritten whole: the next request is a disk hit with the same bytes.
            #expect(try await harness.get(path).body == made.body)
            #expect(harness.proxy.statistics.snapshot.diskHits == 2)
            #expect(try metrics.expectCounter(Self.corrupt, [("tier", "disk")]).totalValue == 2)
        }
    }

    /// The entry files of a disk cache folder (not the hidden sidecars).
    static func entries(_ folder: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
            .map { folder.appendingPathComponent($0) }
    }

    /// Changes the file's tail in place, same length, so its extended attributes stay.
    static func changeTail(of file: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: file))
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Self.changedTail(bytes, seed: UInt64(bytes.count)))
    }
}
