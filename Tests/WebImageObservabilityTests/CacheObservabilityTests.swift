import Foundation
import Logging
import MetricsTestKit
import TestSupport
import Testing
import WebImage

/// The image cache's logs and metrics for stores, encodes, evictions, trims, expiry and failures.
@Suite struct CacheObservabilityTests {
    private typealias M = WebImageMetrics
    private let memory = [(M.Dimension.tier, M.Tier.memory)]
    private let disk = [(M.Dimension.tier, M.Tier.disk)]

    /// A cache in a fresh directory, logging at `trace` into `logs` and making its metrics with `metrics`.
    private func withCache(_ configure: (inout ImageCache.Configuration) -> Void = { _ in },
                           _ body: (ImageCache, LogStore, TestMetrics) async throws -> Void) async throws {
        let logs = LogStore(), metrics = TestMetrics()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SwiftWebImageObservabilityCache-\(UUID().uuidString)")
        var configuration = ImageCache.Configuration(expirationInterval: nil)
        configure(&configuration)
        configuration.logger = logs.logger("SwiftWebImage.ImageCache", level: .trace)
        configuration.metricsFactory = metrics
        let cache = ImageCache(namespace: "observed", directory: directory, configuration: configuration)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(cache, logs, metrics)
    }

    private func image(width: Int = 6, height: Int = 4, alpha: UInt8 = 128) -> Image {
        Image(pixels: PixelBuffer(width: width, height: height,
                                  bytes: (0..<(width * height)).flatMap { _ in [40, 90, 200, alpha] }))
    }

    @Test("storing an image without bytes counts both tiers' stores and times the encode per format")
    func storeEncodesAndCounts() async throws {
        try await withCache { cache, _, metrics in
            try await cache.storeImage(image(), forKey: "k")
            #expect(try metrics.expectCounter(M.cacheStores, memory).totalValue == 1)
            #expect(try metrics.expectCounter(M.cacheStores, disk).totalValue == 1)
            // Alpha and no format of its own: stored as PNG.
            #expect(try metrics.expectTimer(M.encodeDuration, [(M.Dimension.format, "png")]).values.count == 1)
            #expect(metrics.timers(label: M.encodeDuration).count == 1)

            cache.clearMemory()
            #expect(await cache.queryImage(forKey: "k").cacheType == .disk)
            #expect(try metrics.expectTimer(M.decodeDuration, [(M.Dimension.format, "png")]).values.count == 1)
        }
    }

    @Test("the memory cache's count limit evicts, counted and logged at debug")
    func memoryEvictionsAreCounted() async throws {
        try await withCache({ $0.maxMemoryCount = 2 }) { cache, logs, metrics in
            for key in ["a", "b", "c"] { try await cache.storeImage(image(), forKey: key, cacheType: .memory) }
            #expect(try metrics.expectCounter(M.cacheStores, memory).totalValue == 3)
            let evictions = [(M.Dimension.tier, M.Tier.memory), (M.Dimension.reason, M.Reason.limit)]
            #expect(try metrics.expectCounter(M.cacheEvictions, evictions).totalValue == 1)
            let logged = logs.entries("memory cache evicted entries over its limits")
            #expect(logged.map(\.level) == [.debug])
            #expect(logged.first?.metadata["entries"] == "1")
            #expect(logged.first?.metadata["countLimit"] == "2")
            #expect(cache.imageFromMemoryCache(forKey: "a") == nil)
        }
    }

    @Test("a write over the disk size limit trims the oldest entries: counted, logged at info, bytes recorded")
    func diskTrimIsCounted() async throws {
        try await withCache({ $0.maxDiskSize = 2_500 }) { cache, logs, metrics in
            for key in ["a", "b", "c", "d"] {
                try await cache.storeImageDataToDisk(Data(repeating: 7, count: 1_000), forKey: key)
            }
            let evictions = [(M.Dimension.tier, M.Tier.disk), (M.Dimension.reason, M.Reason.limit)]
            // The third write reached 3,000 bytes: trimmed to at most half the limit, keeping "c".
            #expect(try metrics.expectCounter(M.cacheEvictions, evictions).totalValue == 2)
            let trims = logs.entries("disk cache trimmed to its size limit")
            #expect(trims.map(\.level) == [.info])
            #expect(trims.first?.metadata["removed"] == "2")
            #expect(trims.first?.metadata["freedBytes"] == "2000")
            #expect(trims.first?.metadata["remainingBytes"] == "1000")
            let bytes = try metrics.expectGauge(M.diskCacheBytes)
            #expect(bytes.values == [1_000, 2_000, 3_000, 1_000, 2_000])
            #expect(await cache.totalDiskSize() == 2_000)
            #expect(bytes.lastValue == 2_000)
            #expect(try metrics.expectCounter(M.cacheStores, disk).totalValue == 4)
        }
    }

    @Test("expiry removes old entries: counted, logged at info; a run with nothing to remove logs at debug")
    func expiryIsCounted() async throws {
        try await withCache({ $0.maxDiskAge = 0 }) { cache, logs, metrics in
            for key in ["a", "b", "c"] {
                try await cache.storeImageDataToDisk(Data(repeating: 1, count: 100), forKey: key)
            }
            await cache.deleteOldFiles()
            await cache.deleteOldFiles()
            let evictions = [(M.Dimension.tier, M.Tier.disk), (M.Dimension.reason, M.Reason.expired)]
            #expect(try metrics.expectCounter(M.cacheEvictions, evictions).totalValue == 3)
            let removed = logs.entries("disk cache removed expired entries")
            #expect(removed.map(\.level) == [.info])
            #expect(removed.first?.metadata["removed"] == "3")
            #expect(removed.first?.metadata["freedBytes"] == "300")
            #expect(logs.entries("disk cache expiry removed nothing").map(\.level) == [.debug])
            #expect(try metrics.expectGauge(M.diskCacheBytes).lastValue == 0)
        }
    }

    @Test("a disk write that fails is logged at error with code 1101 and counted")
    func diskWriteFailureIsAnError() async throws {
        try await withCache { cache, logs, metrics in
            // The cache's directory becomes a plain file: every write fails with ENOTDIR (root ignores modes).
            try FileManager.default.removeItem(atPath: cache.diskCachePath)
            try Data("not a directory".utf8).write(to: URL(fileURLWithPath: cache.diskCachePath))
            await #expect(throws: WebImageError.self) {
                try await cache.storeImageDataToDisk(Data([1, 2, 3]), forKey: "k")
            }
            let failures = logs.entries("disk cache write failed")
            #expect(failures.map(\.level) == [.error])
            #expect(failures.first?.metadata["code"] == "1101")
            #expect(failures.first?.metadata["key"] == "k")
            #expect(try metrics.expectCounter(M.diskWriteFailures).totalValue == 1)
            #expect(try metrics.expectCounter(M.cacheStores, disk).totalValue == 0)
        }
    }

    @Test("a disk entry that does not decode is a miss, removed and logged at warning with code 1001")
    func corruptEntryIsAWarning() async throws {
        try await withCache { cache, logs, metrics in
            try await cache.storeImageDataToDisk(Data(repeating: 0x11, count: 64), forKey: "k")
            #expect(await cache.queryImage(forKey: "k").cacheType == ImageCacheType.none)
            let removed = logs.entries("removed a disk cache entry that does not decode")
            #expect(removed.map(\.level) == [.warning])
            #expect(removed.first?.metadata["code"] == "1001")
            #expect(try metrics.expectCounter(M.cacheMisses, memory).totalValue == 1)
            #expect(try metrics.expectCounter(M.cacheMisses, disk).totalValue == 1)
            #expect(try metrics.expectCounter(M.cacheHits, disk).totalValue == 0)
            #expect(await cache.containsImage(forKey: "k") == ImageCacheType.none)
        }
    }

    @Test("configurations differing only in logger and metrics factory are equal")
    func loggerAndFactoryAreNotPartOfEquality() {
        var one = ImageCache.Configuration(maxMemoryCost: 1 << 20)
        one.logger = LogStore().logger("one", level: .trace)
        one.metricsFactory = TestMetrics()
        let two = ImageCache.Configuration(maxMemoryCost: 1 << 20)
        #expect(one == two)
        #expect(one.hashValue == two.hashValue)
        #expect(one != ImageCache.Configuration(maxMemoryCost: 1 << 21))
        #expect(one.logger.label == "one")
        #expect(two.logger.label == "SwiftWebImage.ImageCache")
    }
}
