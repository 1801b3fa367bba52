import Foundation
import TestSupport
import Testing
@testable import WebImage

/// A transformed image is encoded for the disk cache with the context's encode options, at
/// ``ImageEncodeEffort/fastest`` unless they choose an effort themselves.
@Suite struct ManagerStoreEffortTests {
    static let flip = ImageTransformers.Flip(horizontal: true, vertical: false)

    @Test func aTransformedImageIsStoredAtTheFastestEffortByDefault() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/fast.png", width: 40, height: 20, rgba: [200, 10, 20, 128])
            let context = WebImageContext(transformer: Self.flip)
            let result = try await loadOnce(h.manager, url, options: .waitStoreCache, context: context)
            let image = try #require(result.image)
            let stored = try storedBytes(h, url, context)
            let fastest = try CodersManager.shared.encode(image, as: .png,
                                                          options: ImageEncodeOptions(effort: .fastest))
            #expect(stored == fastest)
            #expect(zlibLevel(stored) == 0)
        }
    }

    @Test func theContextsOwnEffortAndQualityWin() async throws {
        try await withHarness { h async throws in
            let url = try h.serve("/balanced.png", width: 40, height: 20, rgba: [200, 10, 20, 128])
            let balanced = WebImageContext(transformer: Self.flip, encodeOptions: ImageEncodeOptions(effort: .balanced))
            let result = try await loadOnce(h.manager, url, options: .waitStoreCache, context: balanced)
            let image = try #require(result.image)
            let stored = try storedBytes(h, url, balanced)
            #expect(stored == (try CodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions())))
            #expect(zlibLevel(stored) == 2)

            // Quality set, effort unset: that quality at the fastest effort.
            let webpURL = h.server.url("/q.webp")
            let webp = try CodersManager.shared.encode(Image(pixels: image.pixels, hasAlpha: false), as: .webp,
                                                       options: ImageEncodeOptions())
            h.server.route("/q.webp", TestResponse(body: webp))
            let lowQuality = WebImageContext(transformer: Self.flip, encodeOptions: ImageEncodeOptions(quality: 0.5))
            let flipped = try #require(try await loadOnce(h.manager, webpURL, options: .waitStoreCache,
                                                          context: lowQuality).image)
            #expect(try storedBytes(h, webpURL, lowQuality) == (try CodersManager.shared.encode(
                flipped, as: .webp, options: ImageEncodeOptions(quality: 0.5, effort: .fastest))))
        }
    }

    /// The disk entry under the request's full (transformed) key.
    private func storedBytes(_ h: ManagerHarness, _ url: URL, _ context: WebImageContext) throws -> Data {
        let key = try #require(h.manager.cacheKey(for: url, context: context))
        return try Data(contentsOf: URL(fileURLWithPath: h.cache.cachePath(forKey: key)))
    }

    /// FLEVEL of the zlib header starting the PNG's image data.
    private func zlibLevel(_ png: Data) -> Int? {
        guard let idat = png.range(of: Data("IDAT".utf8)), idat.upperBound + 1 < png.count else { return nil }
        return Int(png[idat.upperBound + 1] >> 6)
    }
}
