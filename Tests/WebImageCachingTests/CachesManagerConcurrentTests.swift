import Foundation
import Testing
import WebImage

/// Under the concurrent policy a memory hit in any cache wins over a disk hit in another, however the
/// answers race (the disk answer of one cache used to arrive before another's synchronous memory answer).
@Suite struct CachesManagerConcurrentTests {
    static func caches(_ directory: TemporaryDirectory) async throws -> (CachesManager, ImageCache, ImageCache) {
        let config = ImageCache.Configuration(expirationInterval: nil)
        let coders = CodersManager(coders: [FakeCoder()])
        let inMemory = ImageCache(namespace: "memory", directory: directory.url, configuration: config, coders: coders)
        let onDisk = ImageCache(namespace: "disk", directory: directory.url, configuration: config, coders: coders)
        try await inMemory.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "k")
        try await onDisk.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "k", cacheType: .disk)
        // The disk-only cache has the higher priority, so it is asked first.
        let manager = CachesManager(caches: [inMemory, onDisk], policies: .init(query: .concurrent, contains: .concurrent))
        return (manager, inMemory, onDisk)
    }

    @Test(arguments: [ImageCacheOptions(), .queryDiskDataSync])
    func aMemoryHitWinsTheQueryEveryTime(options: ImageCacheOptions) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (manager, _, onDisk) = try await Self.caches(directory)
        var answers: [ImageCacheType] = []
        for _ in 0..<300 {
            let result = await manager.queryImage(forKey: "k", options: options)
            answers.append(result.image == nil ? .none : result.cacheType)
            onDisk.memoryCache.removeAll()
        }
        #expect(answers.allSatisfy { $0 == .memory }, "answers other than memory: \(answers.filter { $0 != .memory })")
    }

    @Test func aMemoryHitWinsContainsEveryTime() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (manager, _, _) = try await Self.caches(directory)
        var answers: [ImageCacheType] = []
        for _ in 0..<300 { answers.append(await manager.containsImage(forKey: "k")) }
        #expect(answers.allSatisfy { $0 == .memory }, "answers other than memory: \(answers.filter { $0 != .memory })")
    }

    @Test func aDiskHitAnswersWhenNoCacheHasItInMemory() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (manager, inMemory, _) = try await Self.caches(directory)
        inMemory.memoryCache.removeAll()
        await inMemory.removeImage(forKey: "k")
        #expect(await manager.containsImage(forKey: "k") == .disk)
        #expect(await manager.containsImage(forKey: "missing") == .none)
        let result = await manager.queryImage(forKey: "k", options: .queryDiskDataSync)
        #expect(result.cacheType == .disk && result.image != nil)
    }
}
