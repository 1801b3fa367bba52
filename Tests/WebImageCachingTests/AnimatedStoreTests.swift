import Foundation
import Testing
import TestSupport
import WebImage

/// Storing an animation without data writes its original bytes, as SDWebImage writes `animatedImageData`,
/// instead of re-encoding the frames (larger, lossy or slower).
@Suite struct AnimatedStoreTests {
    static let gif = TestCorpus.url("gif/samples/anim-gr.gif")

    private func makeCache(_ directory: TemporaryDirectory) -> ImageCache {
        ImageCache(namespace: "animated", directory: directory.url, configuration: .init(expirationInterval: nil))
    }

    @Test func anAnimatedImageIsStoredAsItsOriginalBytes() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory)
        let original = try Data(contentsOf: Self.gif)
        let animated = try AnimatedImage(data: original)
        #expect(animated.frameCount > 1)
        try await cache.storeImage(animated, forKey: "animated")
        #expect(cache.diskCache.data(forKey: "animated") == original)
        #expect(cache.imageFromMemoryCache(forKey: "animated")?.frameCount == animated.frameCount)
    }

    @Test func anImageMadeFromAnAnimationIsStoredAsItsOriginalBytes() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory)
        let original = try Data(contentsOf: Self.gif)
        let image = try AnimatedImage(data: original).makeImage()
        #expect(image.animatedImageData == original)
        try await cache.storeImage(image, forKey: "made", cacheType: .disk)
        #expect(cache.diskCache.data(forKey: "made") == original)
        // Given bytes still win.
        try await cache.storeImage(image, data: Data([1, 2, 3]), forKey: "given", cacheType: .disk)
        #expect(cache.diskCache.data(forKey: "given") == Data([1, 2, 3]))
    }

    @Test func aCopyWithOtherFramesIsEncodedAgain() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory)
        let original = try Data(contentsOf: Self.gif)
        let image = try AnimatedImage(data: original).makeImage()
        let firstFrame = image.with(frames: [image.frames[0]])
        #expect(firstFrame.animatedImageData == nil)
        #expect(image.with(isTransformed: true).animatedImageData == original)
        try await cache.storeImage(firstFrame, forKey: "first", cacheType: .disk)
        let stored = try #require(cache.diskCache.data(forKey: "first"))
        #expect(stored != original)
        #expect(try CodersManager.shared.decode(stored, options: ImageDecodeOptions()).frameCount == 1)
    }
}
