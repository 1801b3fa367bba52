import Foundation
import Testing
import TestSupport
import WebImage

/// A coder-specific option only ``ToneCoder`` understands: the grey level it fills images with.
enum Tone: ImageCoderOptionKey {
    static let defaultValue = 1.0
}

/// A custom format ("TONE", width, height): solid grey at the ``Tone`` the decode options carry.
///
/// With `finishes` false it builds its `Image` directly, as a coder written without SDWebImage's helpers would,
/// and never records the options itself.
final class ToneCoder: ImageCoding {
    let finishes: Bool

    init(finishes: Bool = true) {
        self.finishes = finishes
    }

    static func bytes(width: UInt8, height: UInt8) -> Data { Data(Array("TONE".utf8) + [width, height]) }

    func canDecode(_ data: Data) -> Bool { data.count == 6 && data.prefix(4).elementsEqual("TONE".utf8) }

    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        guard canDecode(data) else { throw WebImageError.badImageData(.corrupt("not a TONE image")) }
        let size = PixelSize(width: Int(data[data.startIndex + 4]), height: Int(data[data.startIndex + 5]))
        let level = UInt8((options.coderOptions[Tone.self] * 255).rounded())
        let pixels = PixelBuffer(width: size.width, height: size.height, format: .rgba8,
                                 bytes: (0..<size.pixelCount).flatMap { _ in [level, level, level, 255] })
        let image = Image(pixels: pixels, hasAlpha: false)
        return finishes ? options.finish(image, sourceSize: size) : image
    }

    func canEncode(to format: ImageFormat) -> Bool { false }

    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError.encodingFailed(format: format, reason: "TONE images are not encoded")
    }
}

/// SDWebImage's `imageDecodeOptions` pass-through, its context-level scale factor and `sd_decodeOptions`.
@Suite struct CustomCoderTests {
    /// A manager whose downloader and cache both know the TONE format, serving `/tone` from a loopback server.
    static func withToneManager(_ coder: ToneCoder = ToneCoder(),
                                _ body: (ImageManager, URL, TestHTTPServer) async throws -> Void) async throws {
        let server = try await TestHTTPServer.start()
        server.route("/tone", TestResponse(body: ToneCoder.bytes(width: 4, height: 2)))
        let coders = CodersManager(coders: CodersManager.shared.coders + [coder])
        let downloader = ImageDownloader(coders: coders)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tone-\(UUID().uuidString)")
        let cache = ImageCache(namespace: "tone", directory: directory, coders: coders)
        var failure: (any Error)?
        do {
            try await body(ImageManager(cache: cache, loader: downloader), server.url("/tone"), server)
        } catch {
            failure = error
        }
        try await downloader.shutdown()
        try await server.shutdown()
        try? FileManager.default.removeItem(at: directory)
        if let failure { throw failure }
    }

    static func context(tone: Double) -> WebImageContext {
        var context = WebImageContext()
        context.decodeOptions.coderOptions[Tone.self] = tone
        return context
    }

    @Test func coderOptionsDefaultAndRoundTrip() {
        var options = ImageCoderOptions()
        #expect(options[Tone.self] == 1 && !options.contains(Tone.self) && options.isEmpty)
        options[Tone.self] = 0.25
        #expect(options[Tone.self] == 0.25 && options.contains(Tone.self))
        #expect(ImageDecodeOptions(coderOptions: options) != ImageDecodeOptions())
        options.removeValue(for: Tone.self)
        #expect(options == ImageCoderOptions())
    }

    /// The loader and the cache record the options whichever coder decoded, as SDWebImage's
    /// `SDImageLoaderDecodeImageData` and `SDImageCacheDecodeImageData` do (SDWebImageManagerTests
    /// `test20ThatContextPassDecodeOptionsWorks`): from the network, then from disk in a fresh manager.
    @Test(arguments: [true, false])
    func aCustomCoderReadsItsOptionAndTheImageRecordsIt(finishes: Bool) async throws {
        try await Self.withToneManager(ToneCoder(finishes: finishes)) { manager, url, _ in
            let result = try await manager.image(for: url, options: .waitStoreCache, context: Self.context(tone: 0.2))
            #expect(result.cacheType == .none)
            #expect(result.image.pixels.rgba8(x: 3, y: 1) == [51, 51, 51, 255])
            #expect(result.image.decodeOptions?.coderOptions[Tone.self] == 0.2)
            await manager.imageCache.clear(cacheType: .memory)
            let fromDisk = try await manager.image(for: url, context: Self.context(tone: 0.6))
            #expect(fromDisk.cacheType == .disk)
            #expect(fromDisk.image.decodeOptions?.coderOptions[Tone.self] == 0.6)
        }
    }

    @Test(arguments: [true, false])
    func aMemoryHitDecodedWithOtherCoderOptionsIsDecodedAgain(finishes: Bool) async throws {
        try await Self.withToneManager(ToneCoder(finishes: finishes)) { manager, url, server in
            _ = try await manager.image(for: url, options: .waitStoreCache, context: Self.context(tone: 0.2))
            let other = try await manager.image(for: url, context: Self.context(tone: 1))
            #expect(other.cacheType == .disk)
            #expect(other.image.pixels.rgba8(x: 0, y: 0) == [255, 255, 255, 255])
            let again = try await manager.image(for: url, context: Self.context(tone: 1))
            #expect(again.cacheType == .memory)
            #expect(server.requestCount(for: "/tone") == 1)
        }
    }

    @Test func theContextScaleFactorOverridesTheDecodeOptions() async throws {
        try await Self.withToneManager { manager, url, _ in
            var context = WebImageContext()
            context.decodeOptions.scaleFactor = 2
            context.imageScaleFactor = 3
            context.storeCacheType = .none
            let result = try await manager.image(for: url, context: context)
            #expect(result.image.scale == 3)
            context.imageScaleFactor = nil
            #expect(try await manager.image(for: url, context: context).image.scale == 2)
        }
    }
}
