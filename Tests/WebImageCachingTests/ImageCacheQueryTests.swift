import Foundation
import TestSupport
import Testing
import WebImage

@Suite("Image cache: query")
struct ImageCacheQueryTests {
    @Test("a memory hit answers synchronously with cacheType memory and no data")
    func memoryHitIsSynchronous() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        let image = makeImage()
        cache.storeImage(image, data: FakeCoder.bytes(), forKey: "k")
        let answers = Recorder<ImageCacheQueryResult>()
        let token = cache.queryImage(forKey: "k") { answers.record($0) }
        #expect(answers.count == 1)
        #expect(answers.values[0].image === image)
        #expect(answers.values[0].data == nil)
        #expect(answers.values[0].cacheType == .memory)
        #expect(token.isFinished)
    }

    @Test("queryMemoryData adds the disk bytes to a memory hit; queryMemoryDataSync does it synchronously")
    func memoryData() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        let data = FakeCoder.bytes(fill: 3)
        try await cache.storeImage(makeImage(), data: data, forKey: "k")
        let async = await cache.queryImage(forKey: "k", options: .queryMemoryData)
        #expect(async.cacheType == .memory && async.data == data && async.image != nil)
        let answers = Recorder<ImageCacheQueryResult>()
        cache.queryImage(forKey: "k", options: [.queryMemoryData, .queryMemoryDataSync], context: .init(),
                         cacheType: .all) { answers.record($0) }
        #expect(answers.count == 1)
        #expect(answers.values.first?.data == data)
        #expect(answers.values.first?.cacheType == .memory)
    }

    @Test("a disk hit is decoded, answers cacheType disk with the bytes, and is written back to memory")
    func diskHit() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let coder = FakeCoder()
        let cache = makeImageCache(in: directory, coder: coder)
        let data = FakeCoder.bytes(width: 3, height: 1, fill: 5)
        try await cache.storeImageDataToDisk(data, forKey: "k@2x.png")
        let result = await cache.queryImage(forKey: "k@2x.png")
        #expect(result.cacheType == .disk)
        #expect(result.data == data)
        #expect(result.image?.pixelWidth == 3)
        #expect(result.image?.scale == 2)
        #expect(cache.imageFromMemoryCache(forKey: "k@2x.png") === result.image)
        #expect(await cache.queryImage(forKey: "k@2x.png").cacheType == .memory)
        #expect(coder.decodeCount == 1)
    }

    @Test("a store type without memory keeps the disk hit out of memory")
    func noWriteBack() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "k")
        let result = await cache.queryImage(forKey: "k", context: .init(storeCacheType: .disk))
        #expect(result.cacheType == .disk)
        #expect(cache.imageFromMemoryCache(forKey: "k") == nil)
    }

    @Test("decode options reach the coder: thumbnail, scale, first frame only")
    func decodeOptions() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let coder = FakeCoder()
        let cache = makeImageCache(in: directory, coder: coder)
        try await cache.storeImageDataToDisk(FakeCoder.bytes(frames: 4), forKey: "anim")
        let options = ImageDecodeOptions(scaleFactor: 3, thumbnailPixelSize: PixelSize(width: 8, height: 8))
        let result = await cache.queryImage(forKey: "anim", options: .decodeFirstFrameOnly,
                                            context: .init(decodeOptions: options))
        #expect(result.image?.frameCount == 1)
        #expect(result.image?.scale == 3)
        #expect(coder.lastDecodeOptions?.thumbnailPixelSize == PixelSize(width: 8, height: 8))
        #expect(coder.lastDecodeOptions?.firstFrameOnly == true)
    }

    @Test("decodeFirstFrameOnly answers the first frame of an animated memory hit")
    func firstFrameFromMemory() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.storeImage(makeImage(frames: 3), forKey: "anim", cacheType: .memory)
        let result = await cache.queryImage(forKey: "anim", options: .decodeFirstFrameOnly)
        #expect(result.cacheType == .memory)
        #expect(result.image?.frameCount == 1)
        #expect(await cache.queryImage(forKey: "anim").image?.frameCount == 3)
    }

    @Test("queryDiskDataSync reads and decodes before returning")
    func diskSync() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "k")
        let answers = Recorder<ImageCacheQueryResult>()
        let token = cache.queryImage(forKey: "k", options: .queryDiskDataSync, context: .init(), cacheType: .all) {
            answers.record($0)
        }
        #expect(answers.count == 1)
        #expect(answers.values.first?.cacheType == .disk)
        #expect(token.isFinished)
    }

    @Test("nil key and cacheType none answer (nil, nil, none) at once; memory-only misses skip disk")
    func immediateMisses() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "k")
        let answers = Recorder<ImageCacheQueryResult>()
        cache.queryImage(forKey: nil, options: [], context: .init(), cacheType: .all) { answers.record($0) }
        cache.queryImage(forKey: "k", options: [], context: .init(), cacheType: .none) { answers.record($0) }
        cache.queryImage(forKey: "k", options: [], context: .init(), cacheType: .memory) { answers.record($0) }
        #expect(answers.count == 3)
        #expect(answers.values.allSatisfy { $0.image == nil && $0.data == nil && $0.cacheType == .none })
    }

    @Test("a corrupt disk entry is a miss and is removed")
    func corruptEntry() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.storeImageDataToDisk(Data("FAKE!".utf8), forKey: "truncated")
        try await cache.storeImageDataToDisk(Data("not an image".utf8), forKey: "garbage")
        for key in ["truncated", "garbage"] {
            let result = await cache.queryImage(forKey: key)
            #expect(result.cacheType == .none && result.image == nil && result.data == nil)
            #expect(!cache.diskCache.containsData(forKey: key))
        }
    }

    @Test("concurrent queries of one disk key decode once")
    func coalesced() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let coder = FakeCoder(decodeDelay: 0.05)
        let cache = makeImageCache(in: directory, coder: coder,
                                   configuration: .init(shouldCacheImagesInMemory: false, expirationInterval: nil))
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "k")
        let answers = Recorder<ImageCacheQueryResult>()
        for _ in 0..<20 { cache.queryImage(forKey: "k", options: [], context: .init(), cacheType: .all) { answers.record($0) } }
        #expect(await eventually { answers.count == 20 })
        #expect(answers.values.allSatisfy { $0.cacheType == .disk && $0.image != nil })
        #expect(Set(answers.values.map { ObjectIdentifier($0.image!) }).count == 1)
        #expect(coder.decodeCount == 1)
    }
}
