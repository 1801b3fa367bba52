import Foundation
import TestSupport
import Testing
import WebImage

@Suite("Caches manager")
struct CachesManagerTests {
    private func name(of result: ImageCacheQueryResult) -> String? {
        result.data.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The logged calls, without the answers.
    private func calls(_ log: Recorder<String>) -> [String] {
        log.values.filter { !$0.hasSuffix(".answered") }
    }

    @Test("default policies: query and contains serial, store highestOnly, remove and clear concurrent")
    func defaults() {
        let policies = CachesManager().policies
        #expect(policies.query == .serial)
        #expect(policies.contains == .serial)
        #expect(policies.store == .highestOnly)
        #expect(policies.remove == .concurrent)
        #expect(policies.clear == .concurrent)
    }

    @Test("serial query asks the last added first and stops at the first hit")
    func serialQuery() async {
        let log = Recorder<String>()
        let low = RecordingCache("low", log: log, keys: ["both", "lowOnly"])
        let high = RecordingCache("high", log: log, keys: ["both"])
        let manager = CachesManager(caches: [low, high])
        #expect(name(of: await manager.queryImage(forKey: "both")) == "high")
        #expect(calls(log) == ["high.query"])
        #expect(name(of: await manager.queryImage(forKey: "lowOnly")) == "low")
        #expect(calls(log) == ["high.query", "high.query", "low.query"])
        let miss = await manager.queryImage(forKey: "none")
        #expect(miss.cacheType == .none && miss.image == nil)
    }

    @Test("concurrent query asks all at once and the first hit wins")
    func concurrentQuery() async {
        let log = Recorder<String>()
        let low = RecordingCache("low", log: log, delay: 0.02, keys: ["k"])
        let high = RecordingCache("high", log: log, delay: .infinity, keys: ["k"])
        let manager = CachesManager(caches: [low, high], policies: .init(query: .concurrent))
        let first = Recorder<ImageCacheQueryResult>()
        manager.queryImage(forKey: "k", options: [], context: .init(), cacheType: .all) { first.record($0) }
        #expect(await eventually(timeout: 30) { first.count == 1 })
        #expect(first.values.first.flatMap(name(of:)) == "low")
        #expect(Set(log.values) == ["low.query", "high.query", "low.query.answered"])
        let both = CachesManager(caches: [RecordingCache("a", log: log, delay: 0.05),
                                          RecordingCache("b", log: log, delay: 0.01)],
                                 policies: .init(query: .concurrent))
        let answers = Recorder<ImageCacheQueryResult>()
        both.queryImage(forKey: "none", options: [], context: .init(), cacheType: .all) { answers.record($0) }
        #expect(await eventually { answers.count == 1 })
        #expect(log.values.contains("a.query.answered") && log.values.contains("b.query.answered"))
        try? await Task.sleep(for: .milliseconds(100))
        #expect(answers.count == 1 && answers.values[0].cacheType == .none)
    }

    @Test("highestOnly and lowestOnly ask one cache")
    func singleCachePolicies() async {
        let log = Recorder<String>()
        let low = RecordingCache("low", log: log, keys: ["k"])
        let high = RecordingCache("high", log: log)
        let manager = CachesManager(caches: [low, high], policies: .init(query: .highestOnly))
        #expect(await manager.queryImage(forKey: "k").cacheType == .none)
        manager.policies.query = .lowestOnly
        #expect(name(of: await manager.queryImage(forKey: "k")) == "low")
        #expect(calls(log) == ["high.query", "low.query"])
    }

    @Test("store goes to the highest only by default; remove and clear reach every cache")
    func storeRemoveClear() async throws {
        let log = Recorder<String>()
        let low = RecordingCache("low", log: log), high = RecordingCache("high", log: log)
        let manager = CachesManager(caches: [low])
        manager.addCache(high)
        try await manager.storeImage(makeImage(), forKey: "k")
        #expect(high.has("k") && !low.has("k"))
        manager.policies.store = .concurrent
        try await manager.storeImage(makeImage(), forKey: "j")
        #expect(high.has("j") && low.has("j"))
        await manager.removeImage(forKey: "j")
        #expect(!high.has("j") && !low.has("j"))
        await manager.clear()
        #expect(!high.has("k"))
        #expect(log.values.filter { $0.hasSuffix(".remove") }.sorted() == ["high.remove", "low.remove"])
        #expect(log.values.filter { $0.hasSuffix(".clear") }.sorted() == ["high.clear", "low.clear"])
        manager.removeCache(high)
        #expect(manager.caches.count == 1)
    }

    @Test("serial store writes highest first, then each lower one")
    func serialStore() async throws {
        let log = Recorder<String>()
        let manager = CachesManager(caches: [RecordingCache("a", log: log), RecordingCache("b", log: log),
                                             RecordingCache("c", log: log)],
                                    policies: .init(store: .serial))
        try await manager.storeImage(makeImage(), forKey: "k")
        #expect(calls(log) == ["c.store", "b.store", "a.store"])
    }

    @Test("contains: serial stops at the first cache that has it")
    func containsSerial() async {
        let log = Recorder<String>()
        let low = RecordingCache("low", log: log, keys: ["k"])
        let high = RecordingCache("high", log: log)
        let manager = CachesManager(caches: [low, high])
        #expect(await manager.containsImage(forKey: "k") == .memory)
        #expect(calls(log) == ["high.contains", "low.contains"])
        #expect(await manager.containsImage(forKey: "x") == ImageCacheType.none)
    }

    @Test("no caches: every operation answers at once")
    func empty() async throws {
        let manager = CachesManager()
        let answers = Recorder<ImageCacheQueryResult>()
        manager.queryImage(forKey: "k", options: [], context: .init(), cacheType: .all) { answers.record($0) }
        #expect(answers.count == 1 && answers.values[0].cacheType == .none)
        try await manager.storeImage(makeImage(), forKey: "k")
        #expect(await manager.containsImage(forKey: "k") == ImageCacheType.none)
    }

    @Test("cancelling a manager query answers a miss once and cancels the caches' queries")
    func cancel() async {
        let log = Recorder<String>()
        let low = RecordingCache("low", log: log, delay: 0.1, keys: ["k"])
        let high = RecordingCache("high", log: log, delay: 0.1, keys: ["k"])
        let manager = CachesManager(caches: [low, high], policies: .init(query: .concurrent))
        let answers = Recorder<ImageCacheQueryResult>()
        let token = manager.queryImage(forKey: "k", options: [], context: .init(), cacheType: .all) { answers.record($0) }
        token.cancel()
        token.cancel()
        try? await Task.sleep(for: .milliseconds(250))
        #expect(answers.count == 1)
        #expect(answers.values[0].cacheType == .none)
        manager.policies.query = .serial
        let serial = Recorder<ImageCacheQueryResult>()
        manager.queryImage(forKey: "missing", options: [], context: .init(), cacheType: .all) { serial.record($0) }.cancel()
        try? await Task.sleep(for: .milliseconds(250))
        #expect(serial.count == 1 && serial.values[0].cacheType == .none)
        #expect(calls(log).suffix(1) == ["high.query"])
    }

    @Test("over real image caches: store lands in the highest, queries find it there")
    func realCaches() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let config = ImageCache.Configuration(expirationInterval: nil)
        let coders = CodersManager(coders: [FakeCoder()])
        let low = ImageCache(namespace: "low", directory: directory.url, configuration: config, coders: coders)
        let high = ImageCache(namespace: "high", directory: directory.url, configuration: config, coders: coders)
        let manager = CachesManager(caches: [low, high])
        try await manager.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "k")
        #expect(high.imageFromMemoryCache(forKey: "k") != nil)
        #expect(low.imageFromMemoryCache(forKey: "k") == nil)
        try await low.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "lowKey", cacheType: .disk)
        #expect(await manager.queryImage(forKey: "lowKey").cacheType == .disk)
        #expect(await manager.containsImage(forKey: "k") == .memory)
    }
}
