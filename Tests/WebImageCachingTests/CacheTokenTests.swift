import Foundation
import TestSupport
import Testing
@testable import WebImage

@Suite("Image cache: cancellation")
struct CacheTokenTests {
    /// A cache whose disk decodes take a while, with an entry "k" on disk only.
    private func slowCache(_ directory: TemporaryDirectory, coder: FakeCoder = FakeCoder(decodeDelay: 0.1))
        async throws -> ImageCache {
        let cache = makeImageCache(in: directory, coder: coder)
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "k")
        return cache
    }

    /// Keeps the cache's serial I/O queue busy until the returned semaphore is signalled, so work submitted
    /// meanwhile is known not to have started.
    private func holdIO(_ cache: ImageCache) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        cache.io.submit { release.wait() }
        return release
    }

    @Test("cancel answers (nil, nil, none) exactly once; a second cancel is a no-op")
    func cancelOnce() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = try await slowCache(directory)
        let answers = Recorder<ImageCacheQueryResult>()
        let token = cache.queryImage(forKey: "k", options: [], context: .init(), cacheType: .all) { answers.record($0) }
        token.cancel()
        #expect(answers.count == 1)
        token.cancel()
        #expect(token.isCancelled)
        try await Task.sleep(for: .milliseconds(300))
        #expect(answers.count == 1)
        #expect(answers.values[0].image == nil && answers.values[0].data == nil && answers.values[0].cacheType == .none)
    }

    @Test("a cancel after completion does nothing")
    func cancelAfterCompletion() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = try await slowCache(directory, coder: FakeCoder())
        let answers = Recorder<ImageCacheQueryResult>()
        let token = cache.queryImage(forKey: "k", options: [], context: .init(), cacheType: .all) { answers.record($0) }
        #expect(await eventually { answers.count == 1 })
        token.cancel()
        #expect(!token.isCancelled)
        #expect(answers.count == 1)
        #expect(answers.values[0].cacheType == .disk)
    }

    @Test("cancelling one of several coalesced queries leaves the others their answer")
    func cancelOneOfMany() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let coder = FakeCoder(decodeDelay: 0.1)
        let cache = try await slowCache(directory, coder: coder)
        let kept = Recorder<ImageCacheQueryResult>(), cancelled = Recorder<ImageCacheQueryResult>()
        cache.queryImage(forKey: "k", options: [], context: .init(), cacheType: .all) { kept.record($0) }
        let token = cache.queryImage(forKey: "k", options: [], context: .init(), cacheType: .all) { cancelled.record($0) }
        token.cancel()
        #expect(await eventually { kept.count == 1 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(kept.values[0].cacheType == .disk)
        #expect(cancelled.count == 1 && cancelled.values[0].cacheType == .none)
        #expect(coder.decodeCount == 1)
    }

    @Test("a query cancelled before its turn never reads nor decodes")
    func cancelledWorkSkipped() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let coder = FakeCoder(decodeDelay: 0.1)
        let cache = try await slowCache(directory, coder: coder)
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "other")
        let answers = Recorder<ImageCacheQueryResult>()
        let release = holdIO(cache)
        cache.queryImage(forKey: "other", options: [], context: .init(), cacheType: .all) { answers.record($0) }
        cache.queryImage(forKey: "k", options: [], context: .init(), cacheType: .all) { answers.record($0) }.cancel()
        release.signal()
        #expect(await eventually { answers.count == 2 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(coder.decodeCount == 1)
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
    }

    @Test("cancelling the task of an async query answers a miss")
    func asyncCancel() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let gate = DispatchSemaphore(value: 0)
        let coder = FakeCoder(decodeGate: gate)
        let cache = try await slowCache(directory, coder: coder)
        let task = Task { await cache.queryImage(forKey: "k") }
        // The decode has started and waits for the gate: the query is in flight however busy the machine is.
        #expect(await eventually { coder.decodeCount == 1 })
        task.cancel()
        let result = await task.value
        gate.signal()
        #expect(result.cacheType == .none && result.image == nil)
    }

    @Test("a cancelled store answers cancelled once and skips the write if it had not started")
    func cancelStore() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = try await slowCache(directory)
        let answers = Recorder<WebImageError?>()
        let release = holdIO(cache)
        let token = cache.storeImage(nil, data: FakeCoder.bytes(), forKey: "s", cacheType: .disk) { answers.record($0) }
        token.cancel()
        token.cancel()
        release.signal()
        #expect(answers.count == 1)
        if case .cancelled = answers.values[0] {} else { Issue.record("expected cancelled, got \(String(describing: answers.values[0]))") }
        try await Task.sleep(for: .milliseconds(300))
        #expect(answers.count == 1)
        #expect(!cache.diskCache.containsData(forKey: "s"))
    }
}
