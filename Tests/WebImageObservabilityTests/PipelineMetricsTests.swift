import Foundation
import MetricsTestKit
import TestSupport
import Testing
import WebImage

/// The metrics of real loads through ImageManager, read back from a `TestMetrics` factory.
@Suite struct PipelineMetricsTests {
    private typealias M = WebImageMetrics
    private let memory = [(M.Dimension.tier, M.Tier.memory)]
    private let disk = [(M.Dimension.tier, M.Tier.disk)]

    @Test("cold, memory, disk, coalesced and failed loads count exactly what happened")
    func countsEveryTierAndDownload() async throws {
        try await withObservedPipeline { p async throws in
            let jpeg = try encodedImage(.jpeg), png = try encodedImage(.png, width: 20, height: 20)
            p.server.route("/a.jpg", TestResponse(body: jpeg))
            let gate = TestGate()
            var gated = TestResponse(body: png)
            gated.gate = gate
            p.server.route("/b.png", gated)
            let a = p.server.url("/a.jpg"), b = p.server.url("/b.png")

            // Cold: memory and disk miss, one download, stored in both tiers.
            #expect(try await p.load(a).get().cacheType == ImageCacheType.none)
            // Warm: the manager's synchronous memory hit.
            #expect(try await p.load(a).get().cacheType == .memory)
            // Memory cleared: a disk hit, decoded again.
            p.cache.clearMemory()
            #expect(try await p.load(a).get().cacheType == .disk)

            // Two callers of one URL: the second joins the first's download, held by the server until it has (its
            // options differ: the manager runs loads of the same options as one, never reaching the downloader twice).
            async let first = p.load(b)
            #expect(await eventually { p.server.requestCount(for: "/b.png") == 1 })
            async let second = p.load(b, options: [.waitStoreCache, .lowPriority])
            #expect(await eventually { (try? p.counter(M.downloadsCoalesced)) == 1 })
            gate.open()
            let results = await [first, second]
            #expect(results.allSatisfy { (try? $0.get().cacheType) == ImageCacheType.none })

            // Unknown path: the server answers 404.
            let missing = await p.load(p.server.url("/missing.png"))
            #expect(missing.failureCode == 2001)

            #expect(try p.counter(M.cacheHits, memory) == 1)
            #expect(try p.counter(M.cacheHits, disk) == 1)
            // a cold, a after clearing, b twice, the 404 — each asked memory, then disk (except the memory hit
            // and the disk hit's own tier).
            #expect(try p.counter(M.cacheMisses, memory) == 5)
            #expect(try p.counter(M.cacheMisses, disk) == 4)
            // Each load that downloaded stores its image: a once, b once per caller.
            #expect(try p.counter(M.cacheStores, memory) == 3)
            #expect(try p.counter(M.cacheStores, disk) == 3)
            #expect(try p.counter(M.downloadsStarted) == 3)
            #expect(try p.counter(M.downloadsCoalesced) == 1)
            #expect(try p.counter(M.downloadsFailed, [(M.Dimension.code, "2001")]) == 1)
            #expect(p.metrics.counters(label: M.downloadsFailed).count == 1)
            #expect(try p.counter(M.downloadBytes) == Int64(jpeg.count + png.count))
            #expect(try p.timerCount(M.downloadFirstByte) == 3)
            #expect(try p.timerCount(M.downloadDuration) == 3)
            // a decoded from the download and from disk; b once for both callers (same decode options).
            #expect(try p.timerCount(M.decodeDuration, [(M.Dimension.format, "jpeg")]) == 2)
            #expect(try p.timerCount(M.decodeDuration, [(M.Dimension.format, "png")]) == 1)
            #expect(p.metrics.timers(label: M.decodeDuration).flatMap(\.values).allSatisfy { $0 > 0 })
            // Every byte came with its original data: nothing was encoded, nothing evicted.
            #expect(p.metrics.timers(label: M.encodeDuration).isEmpty)
            #expect(p.metrics.counters(label: M.cacheEvictions).allSatisfy { $0.totalValue == 0 })
        }
    }

    @Test("a new cache over the same directory answers from disk and counts the hit")
    func newCacheOverTheSameDirectoryCountsADiskHit() async throws {
        try await withObservedPipeline { p async throws in
            let png = try encodedImage(.png)
            p.server.route("/a.png", TestResponse(body: png))
            let url = p.server.url("/a.png")
            #expect(try await p.load(url).get().cacheType == ImageCacheType.none)

            let reopened = ImageCache(namespace: "observed", directory: p.directory,
                                      configuration: p.cacheConfiguration())
            let manager = ImageManager(cache: reopened, loader: p.downloader, metricsFactory: p.metrics)
            #expect(try await manager.image(for: url).cacheType == .disk)
            #expect(try await manager.image(for: url).cacheType == .memory)

            #expect(try p.counter(M.cacheHits, disk) == 1)
            #expect(try p.counter(M.cacheHits, memory) == 1)
            #expect(try p.counter(M.cacheMisses, memory) == 2)
            #expect(try p.counter(M.cacheMisses, disk) == 1)
            #expect(try p.counter(M.downloadsStarted) == 1)
            #expect(p.server.requestCount(for: "/a.png") == 1)
            #expect(try p.timerCount(M.decodeDuration, [(M.Dimension.format, "png")]) == 2)
        }
    }
}

extension Result where Failure == WebImageError {
    /// The SDWebImage code of a failure; nil for a success.
    var failureCode: Int? {
        guard case .failure(let error) = self else { return nil }
        return error.code
    }
}
