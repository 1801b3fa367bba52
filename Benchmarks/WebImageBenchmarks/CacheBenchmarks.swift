import Dispatch
import Foundation
import WebImage

/// Memory-cache lookups against a bare `Dictionary`, two-thread scaling, eviction churn, and disk-cache
/// writes/reads against plain `FileManager`, all in the same run.
enum CacheBenchmarks {
    static func runMemory() {
        memoryHits()
        memoryHitsTwoThreads()
        evictionChurn()
    }

    static func runDisk() throws {
        try diskWriteRead()
    }

    private static let keys = (0..<1_000).map { "https://images.example.com/photos/\($0)/large.jpg" }
    /// One image per key, as in a real cache (one shared instance would make every hit retain the same object).
    private static let images = keys.map { _ in Image(pixels: PixelBuffer(width: 4, height: 4), hasAlpha: true) }
    private static let image = images[0]
    private static let lookups = 1_000_000

    /// The same keys in strings of their own, as a caller builds each request's URL string: looking up the
    /// very strings the cache stored would compare by identity, and a string shared by two threads would
    /// have its reference count written by both on every lookup (a cost of the loop, not of the cache).
    private static func ownKeys() -> [String] {
        keys.map { String(decoding: Array($0.utf8), as: UTF8.self) }
    }

    /// Takes ownership of a looked-up image and drops it, as a caller using the image does: without it the
    /// optimizer would skip the `Dictionary` side's retain and release, which the cache's answer always pays.
    @inline(never)
    private static func use(_ image: consuming Image?) {}

    private static func filledCache() -> MemoryCache {
        let cache = MemoryCache()
        for (key, image) in zip(keys, images) { cache.setImage(image, forKey: key) }
        return cache
    }

    /// Nanoseconds per hit: `MemoryCache.image(forKey:)` vs `Dictionary` subscript, same keys, same order.
    private static func memoryHits() {
        let cache = filledCache()
        let dictionary = Dictionary(uniqueKeysWithValues: zip(keys, images))
        let keys = ownKeys()
        var found = 0
        let hits = Measure.interleavedBest({
            for index in 0..<lookups {
                let image = cache.image(forKey: keys[index % keys.count])
                if image != nil { found += 1 }
                use(image)
            }
        }, {
            for index in 0..<lookups {
                let image = dictionary[keys[index % keys.count]]
                if image != nil { found += 1 }
                use(image)
            }
        })
        let ours = hits.ours.wall, raw = hits.theirs.wall
        precondition(found > 0)
        Measure.row("memory hit (ns/op) vs Dictionary", ours: ours * 1e9 / Double(lookups),
                    theirs: raw * 1e9 / Double(lookups), unit: "ns", higherIsBetter: false)
        print(String(format: "  time ours/raw %.2f× (target ≤ 1.3×)", ours / raw))
    }

    /// Hits per second with two threads vs one, on one shared cache; the same for a read-only `Dictionary`
    /// (no lock, no recency) shows what the machine allows.
    private static func memoryHitsTwoThreads() {
        let cache = filledCache()
        let dictionary = Dictionary(uniqueKeysWithValues: zip(keys, images))
        let threadKeys = [ownKeys(), ownKeys()]
        let ourHits = Measure.interleavedBest({
            let keys = threadKeys[0]
            for index in 0..<lookups { use(cache.image(forKey: keys[index % keys.count])) }
        }, {
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                let keys = threadKeys[thread]
                for index in 0..<lookups { use(cache.image(forKey: keys[(index + thread * 500) % keys.count])) }
            }
        })
        let rawHits = Measure.interleavedBest({
            let keys = threadKeys[0]
            for index in 0..<lookups { use(dictionary[keys[index % keys.count]]) }
        }, {
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                let keys = threadKeys[thread]
                for index in 0..<lookups { use(dictionary[keys[(index + thread * 500) % keys.count]]) }
            }
        })
        // Wall-clock: the two-thread side's CPU time is spread over both threads.
        let one = ourHits.ours.wall, two = ourHits.theirs.wall, rawOne = rawHits.ours.wall, rawTwo = rawHits.theirs.wall
        let single = Double(lookups) / one, double = Double(2 * lookups) / two
        Measure.row("memory hits, 2 threads vs 1 (Mops/s)", ours: double / 1e6, theirs: single / 1e6,
                    unit: "M/s", higherIsBetter: true)
        print(String(format: "  scaling %.2f× (target ≥ 1.5×); a bare Dictionary scales %.2f× here (%d cores online)",
                     double / single, rawOne / rawTwo * 2, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Nanoseconds per insert into a full cache (each insert evicts the LRU entry) vs a Dictionary kept at the
    /// same size by removing its oldest key.
    private static func evictionChurn() {
        let inserts = 200_000
        let churnKeys = (0..<inserts).map { "https://images.example.com/churn/\($0).jpg" }
        let ours = Measure.best(repeats: 3) {
            let cache = MemoryCache(configuration: .init(countLimit: 1_000))
            for key in churnKeys { cache.setImage(image, forKey: key) }
        }
        let raw = Measure.best(repeats: 3) {
            var dictionary: [String: Image] = [:]
            for (index, key) in churnKeys.enumerated() {
                dictionary[key] = image
                if index >= 1_000 { dictionary[churnKeys[index - 1_000]] = nil }
            }
        }
        Measure.row("eviction churn (ns/insert) vs Dictionary FIFO", ours: ours * 1e9 / Double(inserts),
                    theirs: raw * 1e9 / Double(inserts), unit: "ns", higherIsBetter: false)
    }

    /// Milliseconds to write, then read, 1,000 × 256 KB: DiskCache vs FileManager / Data(contentsOf:).
    private static func diskWriteRead() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("SwiftWebImageBench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: base) }
        let disk = DiskCache(directory: base.appendingPathComponent("ours"))
        let plain = base.appendingPathComponent("plain")
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
        let payload = Data((0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let count = 1_000
        let diskKeys = (0..<count).map { "https://images.example.com/disk/\($0).jpg" }
        let plainPaths = (0..<count).map { plain.appendingPathComponent("\($0).jpg").path }

        let oursWrite = try Measure.best(repeats: 3) {
            for key in diskKeys { try disk.setData(payload, forKey: key) }
        }
        let rawWrite = Measure.best(repeats: 3) {
            for path in plainPaths { _ = FileManager.default.createFile(atPath: path, contents: payload) }
        }
        let durable = DiskCache(directory: base.appendingPathComponent("durable"),
                                configuration: .init(writingOptions: .durable))
        let oursDurableWrite = try Measure.best(repeats: 3) {
            for key in diskKeys { try durable.setData(payload, forKey: key) }
        }
        var bytes = 0
        let reads = Measure.interleavedBest({
            for key in diskKeys { bytes += disk.data(forKey: key)?.count ?? 0 }
        }, {
            for path in plainPaths { bytes += FileManager.default.contents(atPath: path)?.count ?? 0 }
        })
        let oursRead = reads.ours.wall, rawRead = reads.theirs.wall
        precondition(bytes > 0)
        Measure.row("disk write 1,000 × 256 KB (ms) vs FileManager", ours: oursWrite * 1e3, theirs: rawWrite * 1e3,
                    unit: "ms", higherIsBetter: false)
        print(String(format: "  time ours/raw %.2f× (target ≤ 1.2×)", oursWrite / rawWrite))
        Measure.row("disk write, .durable (fsync) vs FileManager", ours: oursDurableWrite * 1e3, theirs: rawWrite * 1e3,
                    unit: "ms", higherIsBetter: false)
        print(String(format: "  time ours/raw %.2f× (FileManager's atomic write also fsyncs)", oursDurableWrite / rawWrite))
        Measure.row("disk read 1,000 × 256 KB (ms) vs FileManager", ours: oursRead * 1e3, theirs: rawRead * 1e3,
                    unit: "ms", higherIsBetter: false)
        print(String(format: "  time ours/raw %.2f× (target ≤ 1.2×)", oursRead / rawRead))
    }
}
