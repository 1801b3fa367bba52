import Foundation
import Testing
import WebImage

@Suite("Image cache with the built-in coders")
struct ImageCacheRealCodecTests {
    /// A cache in `directory` over `CodersManager.shared` (every built-in coder).
    private func makeCache(_ directory: TemporaryDirectory) -> ImageCache {
        ImageCache(namespace: "real", directory: directory.url, configuration: .init(expirationInterval: nil))
    }

    @Test("images stored without bytes are encoded as PNG, JPEG or GIF and decode back from disk")
    func encodeAndDecode() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory)
        let cases: [(key: String, image: Image, format: ImageFormat, frames: Int)] = [
            ("alpha", makeImage(width: 8, height: 6, alpha: true, fill: 128), .png, 1),
            ("opaque", makeImage(width: 8, height: 6, fill: 200), .jpeg, 1),
            ("animated", makeImage(width: 8, height: 6, frames: 3, fill: 255), .gif, 3),
        ]
        for entry in cases {
            try await cache.storeImage(entry.image, forKey: entry.key, cacheType: .disk)
            let data = try #require(cache.diskCache.data(forKey: entry.key))
            #expect(ImageFormat(sniffing: data) == entry.format)
            let result = await cache.queryImage(forKey: entry.key)
            #expect(result.cacheType == .disk)
            #expect(result.image?.format == entry.format)
            #expect(result.image?.pixelWidth == 8 && result.image?.pixelHeight == 6)
            #expect(result.image?.frameCount == entry.frames)
        }
    }

    @Test("a PNG on disk decodes with the decode options: thumbnail size and scale from the key")
    func decodeOptions() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory)
        let png = try CodersManager.shared.encode(makeImage(width: 40, height: 20, alpha: true), as: .png,
                                                  options: ImageEncodeOptions())
        try await cache.storeImageDataToDisk(png, forKey: "https://example.com/icon@2x.png")
        let thumb = await cache.queryImage(forKey: "https://example.com/icon@2x.png", context: .init(
            decodeOptions: ImageDecodeOptions(cacheKey: "https://example.com/icon@2x.png",
                                              thumbnailPixelSize: PixelSize(width: 10, height: 10))))
        #expect(thumb.image?.pixelWidth == 10 && thumb.image?.pixelHeight == 5)
        #expect(thumb.image?.scale == 2)
        #expect(thumb.image?.isThumbnail == true)
    }
}
