import Foundation
import TestSupport
import Testing
@testable import WebImage

/// The completion's `data` is the bytes only when they decode to the delivered image (SDWebImage passes nil
/// for transformed images and thumbnails "so we can recalculate the data from the image").
@Suite struct ManagerCompletionDataTests {
    static let flip = ImageTransformers.Flip(horizontal: true, vertical: false)

    @Test func aPlainDownloadAndItsDiskHitCarryTheBytes() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/plain.png", width: 20, height: 10)
            let served = try pngData(width: 20, height: 10, rgba: [200, 10, 20, 255])
            let downloaded = try await loadOnce(h.manager, url, options: .waitStoreCache)
            #expect(downloaded.data == served)
            h.cache.memoryCache.removeAll()
            let fromDisk = try await loadOnce(h.manager, url)
            #expect(fromDisk.cacheType == .disk && fromDisk.data == served)
        }
    }

    @Test func aTransformedImageComesWithoutData() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/t.png", width: 20, height: 10)
            let context = WebImageContext(transformer: Self.flip)
            let downloaded = try await loadOnce(h.manager, url, options: .waitStoreCache, context: context)
            #expect(downloaded.image?.isTransformed == true && downloaded.cacheType == .none)
            #expect(downloaded.data == nil)
            // Derived again from the cached original bytes: still not the bytes of the delivered image.
            h.cache.memoryCache.removeAll()
            await h.cache.removeImage(forKey: h.manager.cacheKey(for: url, context: context))
            let derived = try await loadOnce(h.manager, url, context: context)
            #expect(derived.cacheType == .disk && derived.image?.isTransformed == true)
            #expect(derived.data == nil)
            #expect(h.server.requestCount(for: "/t.png") == 1)
        }
    }

    @Test func aThumbnailOfAFullSizeDiskEntryComesWithoutData() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/full.png", width: 64, height: 32)
            _ = try await loadOnce(h.manager, url, options: .waitStoreCache)
            h.cache.memoryCache.removeAll()
            var context = WebImageContext()
            context.decodeOptions.thumbnailPixelSize = PixelSize(width: 16, height: 16)
            let thumb = try await loadOnce(h.manager, url, context: context)
            #expect(thumb.cacheType == .disk && thumb.image?.pixelSize == PixelSize(width: 16, height: 8))
            #expect(thumb.data == nil)
        }
    }

    @Test func aThumbnailRequestOfASmallerImageKeepsTheBytes() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/small.png", width: 8, height: 8)
            var context = WebImageContext()
            context.decodeOptions.thumbnailPixelSize = PixelSize(width: 100, height: 100)
            let result = try await loadOnce(h.manager, url, context: context)
            #expect(result.image?.pixelSize == PixelSize(width: 8, height: 8) && result.image?.isThumbnail == false)
            #expect(result.data == (try pngData(width: 8, height: 8, rgba: [200, 10, 20, 255])))
        }
    }
}
