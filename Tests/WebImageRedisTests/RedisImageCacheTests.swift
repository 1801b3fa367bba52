import Foundation
import RedisTestSupport
import Testing
import WebImage
@testable import WebImageRedis

/// The shared tier as an `ImageCaching`, against real `redis-server`s.
@Suite(.serialized) struct RedisImageCacheTests {
    static func png(_ width: Int, _ height: Int) throws -> Data {
        let pixels = PixelBuffer(width: width, height: height, bytes: [UInt8](repeating: 90, count: width * height * 4))
        return try CodersManager.shared.encode(Image(pixels: pixels, hasAlpha: false), as: .png, options: ImageEncodeOptions())
    }

    static let configuration = RedisImageCache.Configuration(client: .init(deadline: .seconds(10)))

    @Test func storedBytesComeBackToAnotherInstanceAsADiskTierHit() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let data = try Self.png(12, 8)
        let writer = RedisImageCache(endpoints: [server.endpoint], configuration: Self.configuration)
        try await writer.storeImage(nil, data: data, forKey: "https://a/b.png")
        let reader = RedisImageCache(endpoints: [server.endpoint], configuration: Self.configuration)
        let hit = await reader.queryImage(forKey: "https://a/b.png")
        #expect(hit.cacheType == .disk && hit.data == data && hit.image?.pixelSize == PixelSize(width: 12, height: 8))
        #expect(await reader.containsImage(forKey: "https://a/b.png") == .disk)
        #expect(await reader.queryImage(forKey: "https://a/b.png", cacheType: .memory).cacheType == .none)
        await reader.removeImage(forKey: "https://a/b.png")
        #expect(await reader.containsImage(forKey: "https://a/b.png") == .none)
        let entry = SharedCacheEntry(bytes: Array(data), format: .png, etag: "\"abc\"",
                                     lastModified: Date(timeIntervalSince1970: 1_790_000_000.7))
        try await writer.store(entry, forKey: "result")
        let read = try await reader.entry(forKey: "result")
        #expect(read == entry && read?.lastModified == Date(timeIntervalSince1970: 1_790_000_000))
        await writer.close()
        await reader.close()
    }

    @Test func tornOrForeignValuesAreMisses() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(endpoint: server.endpoint, configuration: .init(deadline: .seconds(2)))
        let cache = RedisImageCache(nodes: [("only", client)], configuration: Self.configuration)
        let whole = SharedCacheEntry(bytes: Array(try Self.png(4, 4)), format: .png).encoded
        let wrongFormat = SharedCacheEntry(bytes: Array(try Self.png(4, 4)), format: .jpeg).encoded
        var otherVersion = whole
        otherVersion[4] = 1
        for (key, value) in [("torn", Array(whole.dropLast(3))), ("foreign", Array("hello".utf8)),
                             ("longer", whole + [0]), ("format", wrongFormat), ("empty", []),
                             ("version", otherVersion)] {
            try await client.set("swi:" + key, value: value)
            #expect(try await cache.entry(forKey: key) == nil, "\(key)")
            #expect(await cache.queryImage(forKey: key).cacheType == .none, "\(key)")
        }
        await client.close()
    }

    @Test func aCachesManagerUsesItAsTheLastTier() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("redis-tier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let shared = RedisImageCache(endpoints: [server.endpoint], configuration: Self.configuration)
        let local = ImageCache(namespace: "local", directory: directory)
        let caches = CachesManager(caches: [shared, local], policies: .init(store: .concurrent))
        let data = try Self.png(6, 6)
        try await shared.storeImage(nil, data: data, forKey: "k")
        let hit = await caches.queryImage(forKey: "k")
        #expect(hit.cacheType == .disk && hit.data == data)
        try await caches.storeImage(nil, data: data, forKey: "both")
        #expect(await shared.containsImage(forKey: "both") == .disk)
        #expect(await local.containsImage(forKey: "both") == .disk)
    }

    @Test func aDeadServerIsAMissInBoundedTime() async throws {
        let port = try RedisServerProcess.freePort()
        let cache = RedisImageCache(endpoints: [RedisEndpoint(host: "127.0.0.1", port: port)])
        let start = ContinuousClock.now
        for _ in 0..<10 { #expect(await cache.queryImage(forKey: "k").cacheType == .none) }
        await #expect(throws: WebImageError.self) { try await cache.storeImage(nil, data: try Self.png(2, 2), forKey: "k") }
        #expect(ContinuousClock.now - start < .seconds(10))
        #expect(!cache.isAvailable)
    }

    @Test func addingANodeMovesAboutAQuarterOfTheKeys() {
        let names = ["redis://a:6379/0", "redis://b:6379/0", "redis://c:6379/0"]
        let three = ConsistentHashRing(nodes: names, name: { $0 })
        let four = ConsistentHashRing(nodes: names + ["redis://d:6379/0"], name: { $0 })
        let keys = (0..<10_000).map { "https://example.com/image/\($0).jpg" }
        let moved = keys.filter { three.node(for: $0) != four.node(for: $0) }
        // Every moved key moved to the new node, and about 1/4 of them moved.
        #expect(moved.allSatisfy { four.node(for: $0) == "redis://d:6379/0" })
        #expect((1_800...3_200).contains(moved.count), "moved \(moved.count) of 10000")
        let counts = Dictionary(grouping: keys, by: { three.node(for: $0)! }).mapValues(\.count)
        #expect(counts.values.allSatisfy { (2_600...4_100).contains($0) }, "\(counts)")
        #expect(ConsistentHashRing<String>(nodes: [], name: { $0 }).node(for: "k") == nil)
    }
}
