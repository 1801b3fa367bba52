import Foundation
import TestSupport
import Testing
@testable import WebImage

/// SDWebImage's vector rules with a real PDF from a loopback origin: a transformer is applied to a vector image
/// only with `transformVectorImage` (else the image is kept, under the key without the transformer's suffix),
/// and each thumbnail size is rasterised and cached apart, at its own size and memory cost.
@Suite struct ManagerVectorImageTests {
    /// A transform whose result cannot be mistaken for the page (the file is mirror-symmetric: a flip would not show).
    static let crop = ImageTransformers.Crop(x: 0, y: 0, width: 50, height: 40)
    /// 200 × 160 points: 200 × 160 pixels at scale 1.
    static let file = "pdf/knockout_blend_multiply.pdf"
    /// The built-in coders and PDF, which an app adds as SDWebImage's PDF plugin is added.
    static let coders = CodersManager(coders: BuiltInCoders.makeAll() + [PDFCoder()])

    private func servePDF(_ h: ManagerHarness) throws -> (URL, Data) {
        let data = try TestCorpus.data(Self.file)
        h.server.route("/doc.pdf", TestResponse(headers: [("Content-Type", "application/pdf")], body: data))
        return (h.server.url("/doc.pdf"), data)
    }

    @Test func withoutTheOptionTheTransformerIsNotAppliedToAVectorImage() async throws {
        try await withHarness(coders: Self.coders) { h async throws in
            let (url, data) = try servePDF(h)
            let context = WebImageContext(coders: Self.coders, transformer: Self.crop)
            let result = try await loadOnce(h.manager, url, options: .waitStoreCache, context: context)
            let image = try #require(result.image)
            let rendered = try PDFCoder().decode(data, options: ImageDecodeOptions())
            #expect(image.isVector && !image.isTransformed)
            #expect(image.pixelSize == PixelSize(width: 200, height: 160))
            let same = image.pixels == rendered.pixels
            #expect(same)
            let transformedKey = try #require(h.manager.cacheKey(for: url, context: context))
            #expect(transformedKey != url.absoluteString)
            #expect(h.cache.imageFromMemoryCache(forKey: transformedKey) == nil)
            let cached = h.cache.imageFromMemoryCache(forKey: url.absoluteString)
            #expect(cached?.pixelSize == PixelSize(width: 200, height: 160) && cached?.isVector == true)
            #expect(await h.cache.containsImage(forKey: transformedKey, cacheType: .disk) == .none)
        }
    }

    @Test func withTheOptionTheTransformerIsApplied() async throws {
        try await withHarness(coders: Self.coders) { h async throws in
            let (url, data) = try servePDF(h)
            let context = WebImageContext(coders: Self.coders, transformer: Self.crop)
            let result = try await loadOnce(h.manager, url, options: [.waitStoreCache, .transformVectorImage],
                                            context: context)
            let image = try #require(result.image)
            let rendered = try PDFCoder().decode(data, options: ImageDecodeOptions())
            let cropped = try #require(Self.crop.transform(rendered, forKey: "k"))
            #expect(image.isTransformed)
            #expect(image.pixelSize == PixelSize(width: 50, height: 40))
            let same = image.pixels == cropped.pixels
            #expect(same)
            let transformedKey = try #require(h.manager.cacheKey(for: url, context: context))
            #expect(h.cache.imageFromMemoryCache(forKey: transformedKey)?.pixelSize == PixelSize(width: 50, height: 40))
        }
    }

    @Test func twoThumbnailSizesAreTwoRasterisedCacheEntries() async throws {
        try await withHarness(coders: Self.coders) { h async throws in
            let (url, data) = try servePDF(h)
            var keys: [String] = []
            for (side, expected) in [(100, PixelSize(width: 100, height: 80)), (400, PixelSize(width: 400, height: 320))] {
                var context = WebImageContext(coders: Self.coders)
                context.decodeOptions.thumbnailPixelSize = PixelSize(width: side, height: side)
                let result = try await loadOnce(h.manager, url, options: .waitStoreCache, context: context)
                let image = try #require(result.image)
                #expect(image.pixelSize == expected)
                #expect(image.isVector && image.isThumbnail)
                // Rasterised at that size, not resampled from another.
                let rendered = try PDFCoder().decode(data, options: ImageDecodeOptions(
                    thumbnailPixelSize: PixelSize(width: side, height: side)))
                let same = image.pixels == rendered.pixels
                #expect(same)
                let key = try #require(h.manager.cacheKey(for: url, context: context))
                let cached = try #require(h.cache.imageFromMemoryCache(forKey: key))
                #expect(cached.pixelSize == expected)
                #expect(cached.memoryCost == expected.width * expected.height * 4)
                keys.append(key)
            }
            #expect(Set(keys).count == 2)
            // The second size came from the cached original bytes, without the network.
            #expect(h.server.requestCount(for: "/doc.pdf") == 1)
        }
    }
}
