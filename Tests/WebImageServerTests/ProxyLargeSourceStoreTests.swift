import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// A source of 1 MiB or more is written to the disk cache after its answer (with direct I/O, one at a time), and
/// then serves the next size of it without the origin.
@Suite struct ProxyLargeSourceStoreTests {
    @Test func aLargeSourceIsStoredAfterItsAnswerAndServesTheNextSize() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = try Fixtures.encode(Image(pixels: Fixtures.noise(700, 500)), .png)
        #expect(png.count >= DiskCache.directWriteThreshold)
        let configuration = ProxyHarness.configuration {
            $0.caches.directory = directory
            $0.caches.memoryBytes = 0
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/big.png", png, contentType: "image/png")
            let first = try await harness.get(harness.signedPath("w:70", source: "/big.png", ext: "png"))
            #expect(first.status == 200, "\(first.text)")
            let sources = directory.appendingPathComponent("sources")
            let deadline = ContinuousClock.now + .seconds(20)
            var stored: [Data] = []
            while stored.isEmpty, ContinuousClock.now < deadline {
                stored = (try? CorruptCacheValueTests.entries(sources))?.compactMap { try? Data(contentsOf: $0) } ?? []
                if stored.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(stored == [png])
            let second = try await harness.get(harness.signedPath("w:35", source: "/big.png", ext: "png"))
            #expect(second.status == 200, "\(second.text)")
            #expect(try second.image().pixelSize == PixelSize(width: 35, height: 25))
            #expect(harness.origin.requestCount(for: "/big.png") == 1)
            #expect(harness.proxy.statistics.snapshot.sourceCacheHits == 1)
            #expect(harness.proxy.statistics.snapshot.sourceStoresSkipped == 0)
        }
    }
}
