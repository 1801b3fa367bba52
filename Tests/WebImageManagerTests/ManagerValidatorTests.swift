import Foundation
import TestSupport
import Testing
@testable import WebImage

/// Validators live with the cache entries made from a download: two images are two entries, and a 304
/// revalidation works from another manager (another process) over the same directory.
@Suite struct ManagerValidatorTests {
    @Test func twoImagesWithValidatorsAreTwoEntries() async throws {
        try await withHarness { h async throws in
            let a = try h.serve("/a.png", width: 5, height: 5, etag: "\"a1\"")
            let b = try h.serve("/b.jpg", width: 6, height: 6, etag: "\"b1\"")
            for url in [a, b] { _ = try await loadOnce(h.manager, url, options: .waitStoreCache) }
            let files = try FileManager.default.contentsOfDirectory(atPath: h.cache.diskCachePath)
            #expect(files.sorted() == [a, b].map { DiskCache.fileName(forKey: $0.absoluteString) }.sorted())
            #expect(h.cache.diskCache.totalCount() == 2)
            #expect(h.cache.diskCache.validators(forKey: a.absoluteString)?.etag == "\"a1\"")
            #expect(h.cache.diskCache.validators(forKey: b.absoluteString)?.etag == "\"b1\"")
            h.cache.diskCache.removeData(forKey: a.absoluteString)
            #expect(h.cache.diskCache.validators(forKey: a.absoluteString) == nil)
        }
    }

    /// The thumbnail's own entry carries the validators, and so does the original stored beside it.
    @Test func aThumbnailIsRevalidatedWithItsEntrysValidators() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/t.png", width: 40, height: 40, etag: "\"t1\"")
            var context = WebImageContext()
            context.decodeOptions.thumbnailPixelSize = PixelSize(width: 10, height: 10)
            _ = try await loadOnce(h.manager, url, options: .waitStoreCache, context: context)
            let (secondCache, second) = h.makeSecondManager()
            let deliveries = await collect(second, url, options: .refreshCached, context: context)
            #expect(deliveries.map(\.cacheType) == [.disk])
            #expect(deliveries.first?.image?.pixelWidth == 10)
            #expect(h.server.requests(for: "/t.png").map { $0.header("If-None-Match") } == [nil, "\"t1\""])
            #expect(secondCache.diskCache.validators(forKey: url.absoluteString)?.etag == "\"t1\"")
            #expect(secondCache.diskCache.totalCount() == 2)
        }
    }

    /// A 200 with new validators replaces the entry and its validators; no validators, no conditions.
    @Test func newBytesBringNewValidatorsOrNone() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/n.png", width: 4, height: 4, etag: "\"n1\"")
            _ = try await loadOnce(h.manager, url, options: .waitStoreCache)
            try h.serve("/n.png", width: 7, height: 7)
            _ = await collect(h.manager, url, options: [.refreshCached, .waitStoreCache])
            #expect(h.cache.diskCache.validators(forKey: url.absoluteString) == nil)
            _ = await collect(h.manager, url, options: [.refreshCached, .waitStoreCache])
            #expect(h.server.requests(for: "/n.png").map { $0.header("If-None-Match") } == [nil, "\"n1\"", nil])
        }
    }
}
