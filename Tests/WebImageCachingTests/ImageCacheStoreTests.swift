import Foundation
import TestSupport
import Testing
import WebImage

@Suite("Image cache: store")
struct ImageCacheStoreTests {
    @Test("store puts the image in memory before returning and on disk by the completion")
    func storeAll() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        let image = makeImage()
        let stored = Recorder<WebImageError?>()
        let data = FakeCoder.bytes(fill: 9)
        cache.storeImage(image, data: data, forKey: "k") { stored.record($0) }
        #expect(cache.imageFromMemoryCache(forKey: "k") === image)
        #expect(await eventually { stored.count == 1 })
        #expect(stored.values.first! == nil)
        #expect(cache.diskCache.data(forKey: "k") == data)
    }

    @Test("cacheType memory, disk and none store only where asked")
    func storeTypes() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "m", cacheType: .memory)
        try await cache.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "d", cacheType: .disk)
        try await cache.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "n", cacheType: ImageCacheType.none)
        #expect(cache.imageFromMemoryCache(forKey: "m") != nil && !cache.diskCache.containsData(forKey: "m"))
        #expect(cache.imageFromMemoryCache(forKey: "d") == nil && cache.diskCache.containsData(forKey: "d"))
        #expect(cache.imageFromMemoryCache(forKey: "n") == nil && !cache.diskCache.containsData(forKey: "n"))
    }

    @Test("shouldCacheImagesInMemory false keeps stores out of memory")
    func noMemory() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory, configuration: .init(shouldCacheImagesInMemory: false,
                                                                       expirationInterval: nil))
        try await cache.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "k")
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
        #expect(cache.diskCache.containsData(forKey: "k"))
    }

    @Test("without data the image is encoded: own format, else GIF if animated, PNG if alpha, JPEG if opaque")
    func encodeFormatChoice() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory, coder: FakeCoder(encodable: [.jpeg, .png, .gif, .webp]))
        let cases: [(Image, ImageFormat)] = [
            (makeImage(format: .webp), .webp),
            (makeImage(frames: 3, alpha: true, format: .heic), .gif),
            (makeImage(alpha: true), .png),
            (makeImage(alpha: false), .jpeg),
            (makeImage(frames: 2), .gif),
        ]
        for (index, (image, expected)) in cases.enumerated() {
            #expect(cache.encodingFormat(for: image) == expected)
            try await cache.storeImage(image, forKey: "k\(index)", cacheType: .disk)
            let data = try #require(cache.diskCache.data(forKey: "k\(index)"))
            #expect(FakeCoder.encodedFormat(of: data) == expected)
        }
    }

    @Test("an image that cannot be encoded fails with encodingFailed and stays off disk")
    func encodeFailure() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory, coder: FakeCoder(encodable: []))
        let error = await #expect(throws: WebImageError.self) {
            try await cache.storeImage(makeImage(), forKey: "k")
        }
        guard case .encodingFailed(let format, _) = error else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
            return
        }
        #expect(format == .jpeg)
        #expect(!cache.diskCache.containsData(forKey: "k"))
        #expect(cache.imageFromMemoryCache(forKey: "k") != nil)
    }

    @Test("the image's extended data is stored beside it and comes back on a disk hit")
    func extendedData() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        let image = makeImage().with(extendedData: Data("extra".utf8))
        try await cache.storeImage(image, forKey: "k", cacheType: .disk)
        let result = await cache.queryImage(forKey: "k")
        #expect(result.cacheType == .disk)
        #expect(result.image?.extendedData == Data("extra".utf8))
    }

    @Test("storing raw data to disk never touches memory")
    func rawDataToDisk() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "k")
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
        #expect(cache.memoryCache.totalCount == 0)
        #expect(cache.diskCache.data(forKey: "k") == FakeCoder.bytes())
    }

    @Test("a nil key or nothing to store answers nil at once and stores nothing")
    func nothingToStore() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        let answers = Recorder<WebImageError?>()
        cache.storeImage(makeImage(), data: nil, forKey: nil) { answers.record($0) }
        cache.storeImage(nil, data: nil, forKey: "k") { answers.record($0) }
        #expect(answers.count == 2)
        #expect(cache.memoryCache.totalCount == 0)
    }

    @Test("an unusable cache directory fails the store with cacheFailure; queries miss")
    func unusableDirectory() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let blocker = directory.url.appendingPathComponent("file")
        try Data([0]).write(to: blocker)
        let cache = ImageCache(namespace: "ns", directory: blocker,
                               configuration: .init(expirationInterval: nil),
                               coders: CodersManager(coders: [FakeCoder()]))
        let error = await #expect(throws: WebImageError.self) {
            try await cache.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "k", cacheType: .disk)
        }
        #expect(error?.code == 1101)
        let result = await cache.queryImage(forKey: "k")
        #expect(result.cacheType == .none)
        #expect(result.image == nil)
    }

    @Test("remove, clear and containsImage answer memory, disk or none")
    func removeClearContains() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "k")
        #expect(await cache.containsImage(forKey: "k") == .memory)
        #expect(await cache.containsImage(forKey: "k", cacheType: .disk) == .disk)
        await cache.removeImage(forKey: "k", fromMemory: true, fromDisk: false)
        #expect(await cache.containsImage(forKey: "k") == .disk)
        await cache.removeImage(forKey: "k", fromMemory: false, fromDisk: true)
        #expect(await cache.containsImage(forKey: "k") == ImageCacheType.none)
        #expect(await cache.containsImage(forKey: nil) == ImageCacheType.none)

        try await cache.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "a")
        try await cache.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "b")
        #expect(await cache.totalDiskCount() == 2)
        #expect(await cache.totalDiskSize() == 20)
        cache.clearMemory()
        #expect(cache.memoryCache.totalCount == 0)
        await cache.clearDisk()
        #expect(await cache.totalDiskCount() == 0)
        try await cache.storeImage(makeImage(), data: FakeCoder.bytes(), forKey: "c")
        await cache.clear(cacheType: .all)
        #expect(await cache.containsImage(forKey: "c") == ImageCacheType.none)
    }
}
