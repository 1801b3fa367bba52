import Foundation
import Synchronization
import TestSupport
import Testing
import WebImage

/// How often each operation's completion ran.
private final class Counts: Sendable {
    private let counts: Mutex<(perOperation: [UInt8], total: Int)>

    init(_ count: Int) {
        counts = Mutex(([UInt8](repeating: 0, count: count), 0))
    }

    func increment(_ index: Int) {
        counts.withLock {
            $0.perOperation[index] &+= 1
            $0.total += 1
        }
    }

    var values: [UInt8] { counts.withLock { $0.perOperation } }
    var total: Int { counts.withLock { $0.total } }
}

@Suite("Image cache: stress")
struct CacheStressTests {
    /// What key `index` always stores: a 1×1 image filled with the index.
    private static func bytes(for index: Int) -> Data { FakeCoder.bytes(width: 1, height: 1, fill: UInt8(index)) }

    @Test("8 tasks × 10,000 mixed store/query/remove on 200 keys: every completion once, every hit right")
    func mixedOperations() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory, configuration: .init(maxMemoryCount: 50, maxDiskSize: 1_000,
                                                                       expirationInterval: nil))
        let tasks = 8, perTask = 10_000
        let completions = Counts(tasks * perTask)
        let wrongHits = Recorder<String>(), hits = Recorder<Int>()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var random = SystemRandomNumberGenerator()
                    for step in 0..<perTask {
                        // The loop never suspends otherwise: yield so it does not hold one of the cooperative
                        // pool's threads (two on this machine) for seconds while other suites' tests run.
                        if step % 64 == 0 { await Task.yield() }
                        let id = task * perTask + step
                        let index = Int.random(in: 0..<200, using: &random)
                        let key = "https://example.com/\(index).png"
                        let done: @Sendable () -> Void = { completions.increment(id) }
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0..<3:
                            let image = makeImage(width: 1, height: 1, fill: UInt8(index))
                            cache.storeImage(image, data: Self.bytes(for: index), forKey: key,
                                             cacheType: [.all, .memory, .disk].randomElement(using: &random)!) { _ in done() }
                        case 3..<8:
                            let token = cache.queryImage(forKey: key, options: [], context: .init(), cacheType: .all) { result in
                                if let image = result.image {
                                    if id % 100 == 0 { hits.record(id) }
                                    if image.pixels.bytes[0] != UInt8(index) { wrongHits.record("\(key): image") }
                                }
                                if let data = result.data, data != Self.bytes(for: index) { wrongHits.record("\(key): data") }
                                done()
                            }
                            if step % 20 == 0 { token.cancel() }
                        default:
                            cache.removeImage(forKey: key, fromMemory: Bool.random(using: &random), fromDisk: true) { done() }
                        }
                    }
                }
            }
        }
        #expect(await eventually(timeout: 120) { completions.total >= tasks * perTask })
        try await Task.sleep(for: .milliseconds(100))
        let counts = completions.values
        #expect(counts.allSatisfy { $0 == 1 }, "\(counts.filter { $0 != 1 }.count) completions not run exactly once")
        #expect(wrongHits.values.isEmpty)
        #expect(hits.count > 0)
    }
}
