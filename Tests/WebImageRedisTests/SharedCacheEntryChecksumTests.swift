import Foundation
import RedisTestSupport
import Testing
import WebImage
@testable import WebImageRedis

/// A value whose frame is intact but whose bytes changed after it was written is refused by its checksum.
@Suite(.serialized) struct SharedCacheEntryChecksumTests {
    @Test func everyChangedByteIsRefused() throws {
        let entry = SharedCacheEntry(bytes: Array(try RedisImageCacheTests.png(5, 5)), format: .png, etag: "\"e\"",
                                     lastModified: Date(timeIntervalSince1970: 1_790_000_000))
        let whole = entry.encoded
        #expect(SharedCacheEntry(decoding: whole) == entry)
        for index in whole.indices {
            var changed = whole
            changed[index] ^= 0x20
            #expect(SharedCacheEntry(decoding: changed) == nil, "byte \(index)")
        }
    }

    @Test func aValueChangedInRedisIsAMiss() async throws {
        let server = try await RedisServerProcess.start()
        defer { server.stop() }
        let client = RedisClient(endpoint: server.endpoint, configuration: .init(deadline: .seconds(2)))
        let cache = RedisImageCache(nodes: [("only", client)], configuration: RedisImageCacheTests.configuration)
        let data = try RedisImageCacheTests.png(16, 16)
        try await cache.store(SharedCacheEntry(bytes: Array(data), format: .png), forKey: "k")
        #expect(try await cache.entry(forKey: "k")?.bytes == Array(data))
        var value = try #require(try await client.get("swi:k"))
        for index in (value.count - 24)..<value.count { value[index] = ~value[index] }
        try await client.set("swi:k", value: value)
        #expect(try await cache.entry(forKey: "k") == nil)
        #expect(await cache.queryImage(forKey: "k").cacheType == .none)
        await client.close()
    }
}
