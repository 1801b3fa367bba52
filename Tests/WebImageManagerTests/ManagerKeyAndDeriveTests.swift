import Foundation
import TestSupport
import Testing
@testable import WebImage

/// Step 2–4 and 7–8: cache keys, thumbnails and transforms derived from cached originals, and what is stored where.
@Suite struct ManagerKeyAndDeriveTests {
    static let flip = ImageTransformers.Flip(horizontal: true, vertical: false)
    static let manager = ImageManager(cache: CachesManager(), loader: LoadersManager())

    @Test func thumbnailKeyMatchesSDWebImage() {
        var context = WebImageContext()
        context.decodeOptions.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        #expect(Self.manager.cacheKey(for: URL(string: "http://foo/image.png"), context: context)
                == "http://foo/image-Thumbnail({100.000000,100.000000},1).png")
        context.decodeOptions.preserveAspectRatio = false
        #expect(Self.manager.cacheKey(for: URL(string: "http://foo/image.png"), context: context)
                == "http://foo/image-Thumbnail({100.000000,100.000000},0).png")
    }

    @Test func transformerKeyIsInsertedBeforeThePathExtension() {
        let context = WebImageContext(transformer: Self.flip)
        let t = "SDImageFlippingTransformer(1,0)"
        #expect(Self.flip.transformerKey == t)
        let filter = ImageCacheKeyFilter { $0.relativeString }
        let cases = [("image.png", "image-\(t).png"), ("image", "image-\(t)"), (".image", ".image-\(t)"),
                     ("image.", "image.-\(t)"), ("Test/image.png", "Test/image-\(t).png"),
                     ("http://foo/image.png?foo=bar#mark", "http://foo/image-\(t).png?foo=bar#mark"),
                     ("ftp://root:password@foo.com/image.png", "ftp://root:password@foo.com/image-\(t).png")]
        for (key, expected) in cases {
            #expect(ImageTransformers.transformedKey(key, transformerKey: t) == expected)
        }
        #expect(Self.manager.cacheKey(for: URL(string: "http://foo/image.png?foo=bar#mark"), context: context)
                == "http://foo/image-\(t).png?foo=bar#mark")
        var filtered = context
        filtered.cacheKeyFilter = filter
        #expect(Self.manager.cacheKey(for: URL(string: "Test/image.png"), context: filtered) == "Test/image-\(t).png")
    }

    @Test func managerLevelSettingsApplyWhereTheContextHasNone() {
        let manager = ImageManager(cache: CachesManager(), loader: LoadersManager())
        manager.cacheKeyFilter = ImageCacheKeyFilter { _ in "fixed.png" }
        manager.transformer = Self.flip
        #expect(manager.cacheKey(for: URL(string: "http://x/y.png")) == "fixed-SDImageFlippingTransformer(1,0).png")
        let own = WebImageContext(transformer: ImageTransformers.Blur(radius: 2),
                                  cacheKeyFilter: ImageCacheKeyFilter { _ in "own.png" })
        #expect(manager.cacheKey(for: URL(string: "http://x/y.png"), context: own) == "own-SDImageBlurTransformer(2.000000).png")
        #expect(manager.cacheKey(for: nil) == nil)
    }

    @Test func theOptionsProcessorRewritesOptionsAndContext() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/processed.png")
            _ = try await loadOnce(h.manager, url)
            h.manager.optionsProcessor = ImageOptionsProcessor { _, options, context in
                (options.union(.fromCacheOnly), context)
            }
            let other = try h.serve("/other.png")
            let result = try await loadOnce(h.manager, other)
            #expect(result.image == nil && result.error == nil)
            #expect(h.server.requestCount(for: "/other.png") == 0)
        }
    }

    @Test func thumbnailDerivedFromTheCachedOriginalWithoutNetworkAndStoredUnderItsOwnKeyOnly() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/big.png", width: 64, height: 32)
            let original = url.absoluteString
            _ = try await loadOnce(h.manager, url, options: .waitStoreCache)
            let originalBytes = try Data(contentsOf: URL(fileURLWithPath: h.cache.cachePath(forKey: original)))
            h.cache.memoryCache.removeAll()
            var context = WebImageContext()
            context.decodeOptions.thumbnailPixelSize = PixelSize(width: 16, height: 16)
            let thumbKey = try #require(h.manager.cacheKey(for: url, context: context))
            let thumb = try await loadOnce(h.manager, url, options: .waitStoreCache, context: context)
            #expect(thumb.image?.pixelSize == PixelSize(width: 16, height: 8) && thumb.image?.isThumbnail == true)
            #expect(thumb.cacheType == .disk)
            #expect(h.server.requestCount(for: "/big.png") == 1)
            #expect(h.cache.imageFromMemoryCache(forKey: thumbKey)?.pixelSize == PixelSize(width: 16, height: 8))
            #expect(await h.cache.containsImage(forKey: thumbKey, cacheType: .disk) == .disk)
            // The original's entries are untouched: no thumbnail written under its key, in memory or on disk.
            #expect(h.cache.imageFromMemoryCache(forKey: original) == nil)
            #expect(try Data(contentsOf: URL(fileURLWithPath: h.cache.cachePath(forKey: original))) == originalBytes)
            // And the thumbnail is now a hit of its own.
            #expect(try await loadOnce(h.manager, url, context: context).cacheType == .memory)
        }
    }

    @Test func downloadedThumbnailStoresTheOriginalBytesOnDiskOnly() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/fresh.png", width: 40, height: 40)
            var context = WebImageContext()
            context.decodeOptions.thumbnailPixelSize = PixelSize(width: 10, height: 10)
            let thumbKey = try #require(h.manager.cacheKey(for: url, context: context))
            let result = try await loadOnce(h.manager, url, options: .waitStoreCache, context: context)
            #expect(result.image?.pixelSize == PixelSize(width: 10, height: 10) && result.cacheType == .none)
            #expect(h.cache.imageFromMemoryCache(forKey: url.absoluteString) == nil)
            let stored = try Data(contentsOf: URL(fileURLWithPath: h.cache.cachePath(forKey: url.absoluteString)))
            #expect(stored == (try pngData(width: 40, height: 40, rgba: [200, 10, 20, 255])))
            // The delivered image is a thumbnail of those bytes, so the completion gets no data (as SDWebImage).
            #expect(result.data == nil)
            #expect(h.cache.imageFromMemoryCache(forKey: thumbKey)?.pixelSize == PixelSize(width: 10, height: 10))
            // The full-size image comes from the stored original without a second request.
            let full = try await loadOnce(h.manager, url)
            #expect(full.image?.pixelSize == PixelSize(width: 40, height: 40) && full.cacheType == .disk)
            #expect(h.server.requestCount(for: "/fresh.png") == 1)
        }
    }

    @Test func transformIsAppliedMarkedAndCachedUnderTheTransformedKey() async throws {
        try await withHarness { h async throws in
            let url = h.server.url("/halves.png")
            // Left half red, right half blue.
            var bytes: [UInt8] = []
            for _ in 0..<4 { for x in 0..<8 { bytes += x < 4 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
            let png = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 8, height: 4, bytes: bytes),
                                                            hasAlpha: false), as: .png, options: ImageEncodeOptions())
            h.server.route("/halves.png", TestResponse(body: png))
            let context = WebImageContext(transformer: Self.flip)
            let result = try await loadOnce(h.manager, url, options: .waitStoreCache, context: context)
            let image = try #require(result.image)
            #expect(image.isTransformed && image.pixels.rgba8(x: 0, y: 0) == [0, 0, 255, 255])
            let key = try #require(h.manager.cacheKey(for: url, context: context))
            #expect(h.cache.imageFromMemoryCache(forKey: key) === image)
            // Original bytes on disk under the plain key (default originalStoreCacheType .disk), not in memory.
            #expect(try Data(contentsOf: URL(fileURLWithPath: h.cache.cachePath(forKey: url.absoluteString))) == png)
            #expect(h.cache.imageFromMemoryCache(forKey: url.absoluteString) == nil)
            // A different transformer on the same URL derives from the cached original without the network.
            let rotated = WebImageContext(transformer: ImageTransformers.Flip(horizontal: false, vertical: true))
            let derived = try await loadOnce(h.manager, url, context: rotated)
            #expect(derived.cacheType == .disk && derived.image?.isTransformed == true)
            #expect(h.server.requestCount(for: "/halves.png") == 1)
        }
    }

    @Test func aTransformerReturningNilFallsBackToTheOriginal() async throws {
        struct Refusing: ImageTransforming {
            var transformerKey: String { "Refusing" }
            func transform(_ image: Image, forKey key: String) -> Image? { nil }
        }
        try await withHarness { h async throws in
            let url = try h.serve("/refuse.png", width: 5, height: 5)
            let result = try await loadOnce(h.manager, url, context: WebImageContext(transformer: Refusing()))
            #expect(result.image?.pixelSize == PixelSize(width: 5, height: 5) && result.image?.isTransformed == false)
            #expect(result.error == nil)
        }
    }

    @Test func animatedImagesAreTransformedOnlyWithTransformAnimatedImage() async throws {
        try await withHarness { h async throws in
            let frames = (0..<3).map { i in
                ImageFrame(pixels: PixelBuffer(width: 4, height: 4, bytes: [UInt8](repeating: UInt8(i * 80), count: 64)),
                           duration: 0.1)
            }
            let gif = try CodersManager.shared.encode(Image(frames: frames, hasAlpha: false), as: .gif,
                                                      options: ImageEncodeOptions())
            h.server.route("/anim.gif", TestResponse(body: gif))
            let url = h.server.url("/anim.gif")
            let context = WebImageContext(transformer: ImageTransformers.Resize(width: 2, height: 2))
            let plain = try await loadOnce(h.manager, url, context: context)
            #expect(plain.image?.frameCount == 3 && plain.image?.isTransformed == false)
            #expect(plain.image?.pixelSize == PixelSize(width: 4, height: 4))
            h.cache.memoryCache.removeAll()
            await h.cache.clear(cacheType: .disk)
            let all = try await loadOnce(h.manager, url, options: .transformAnimatedImage, context: context)
            #expect(all.image?.frameCount == 3 && all.image?.isTransformed == true)
            #expect(all.image?.frames.allSatisfy { $0.pixels.size == PixelSize(width: 2, height: 2) } == true)
        }
    }

    @Test func theCacheSerializerDecidesTheStoredBytes() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/serialized.png")
            let marker = try pngData(width: 3, height: 3, rgba: [0, 255, 0, 255])
            let context = WebImageContext(cacheSerializer: ImageCacheSerializer { _, original, _ in
                original == nil ? nil : marker
            })
            _ = try await loadOnce(h.manager, url, options: .waitStoreCache, context: context)
            let stored = try Data(contentsOf: URL(fileURLWithPath: h.cache.cachePath(forKey: url.absoluteString)))
            #expect(stored == marker)
        }
    }

    @Test func matchAnimatedImageClassReturnsAnAnimatedImage() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/still.png", width: 6, height: 6)
            let result = try await h.manager.image(for: url, options: [.matchAnimatedImageClass, .preloadAllFrames])
            let animated = try #require(result.animatedImage)
            #expect(animated.frameCount == 1 && animated.isAllFramesLoaded && animated.format == .png)
        }
    }
}
