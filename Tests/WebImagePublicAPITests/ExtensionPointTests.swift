import Foundation
import Testing
import TestSupport
import WebImage

/// SDWebImage's extension points used from outside the package: a custom loader and a custom cache, built
/// only from public initializers and served through `ImageManager` like any other source.
@Suite struct ExtensionPointTests {
    static func png(width: Int, height: Int) throws -> Data {
        let pixels = PixelBuffer(width: width, height: height, format: .rgba8) { out in
            for i in stride(from: 0, to: width * height * 4, by: 4) {
                out[i] = 200
                out[i + 1] = 40
                out[i + 2] = 10
                out[i + 3] = 255
            }
        }
        return try CodersManager.shared.encode(Image(pixels: pixels), as: .png, options: ImageEncodeOptions())
    }

    static func temporaryCache() -> ImageCache {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("public-api-\(UUID().uuidString)")
        return ImageCache(namespace: "public", directory: directory)
    }

    @Test func customLoaderDeliversThroughTheManagerAndIsCached() async throws {
        let data = try Self.png(width: 30, height: 20)
        let loader = AssetLoader(assets: ["logo": data])
        let cache = Self.temporaryCache()
        let manager = ImageManager(cache: cache, loader: LoadersManager(loaders: [ImageDownloader(), loader]))
        let url = try #require(URL(string: "asset://logo"))

        let first = try await manager.image(for: url)
        #expect(first.image.pixelSize == PixelSize(width: 30, height: 20))
        #expect(first.cacheType == .none)
        #expect(first.data == data)

        let second = try await manager.image(for: url)
        #expect(second.cacheType == .memory)
        #expect(loader.requests == [url])

        let fresh = ImageManager(cache: ImageCache(namespace: "public", directory: URL(fileURLWithPath: cache.diskCachePath)
                                                      .deletingLastPathComponent()),
                                 loader: loader)
        let fromDisk = try await fresh.image(for: url)
        #expect(fromDisk.cacheType == .disk)
        #expect(fromDisk.data == data)
        #expect(loader.requests == [url])
    }

    @Test func customLoaderErrorsReachTheCaller() async throws {
        let manager = ImageManager(cache: Self.temporaryCache(), loader: AssetLoader(assets: [:]))
        let url = try #require(URL(string: "asset://missing"))
        do {
            _ = try await manager.image(for: url)
            Issue.record("a missing asset must fail")
        } catch {
            #expect(error.code == 2003)
        }
    }

    @Test func httpAndCustomSchemesShareOneLoadersManager() async throws {
        let server = try await TestHTTPServer.start()
        let data = try Self.png(width: 8, height: 6)
        server.route("/a.png", TestResponse(body: data))
        let downloader = ImageDownloader()
        let manager = ImageManager(cache: Self.temporaryCache(),
                                   loader: LoadersManager(loaders: [downloader, AssetLoader(assets: ["b": data])]))
        let viaHTTP = try await manager.image(for: server.url("/a.png"))
        let assetURL = try #require(URL(string: "asset://b"))
        let viaAsset = try await manager.image(for: assetURL)
        #expect(viaHTTP.image.pixelSize == PixelSize(width: 8, height: 6))
        #expect(viaAsset.image.pixelSize == PixelSize(width: 8, height: 6))
        #expect(server.requestCount(for: "/a.png") == 1)
        try await downloader.shutdown()
        try await server.shutdown()
    }

    @Test func customCacheServesAsATierOfACachesManager() async throws {
        let data = try Self.png(width: 12, height: 12)
        let shared = DictionaryCache()
        let local = Self.temporaryCache()
        let caches = CachesManager(caches: [shared, local])
        try await shared.storeImage(nil, data: data, forKey: "k")

        let hit = await caches.queryImage(forKey: "k")
        #expect(hit.cacheType == .disk)
        #expect(hit.data == data)
        #expect(hit.image?.pixelSize == PixelSize(width: 12, height: 12))
        #expect(await caches.containsImage(forKey: "k") == .disk)

        let loader = AssetLoader(assets: ["c": data])
        let manager = ImageManager(cache: CachesManager(caches: [shared], policies: .init(store: .concurrent)),
                                   loader: loader)
        let assetURL = try #require(URL(string: "asset://c"))
        let loaded = try await manager.image(for: assetURL)
        #expect(loaded.cacheType == .none)
        #expect(shared.keys == ["k", "asset://c"])

        await caches.removeImage(forKey: "k")
        #expect(await shared.containsImage(forKey: "k") == .none)
    }
}
