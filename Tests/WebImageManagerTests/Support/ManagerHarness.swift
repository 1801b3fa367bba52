import Foundation
import Synchronization
import TestSupport
import Testing
@testable import WebImage

/// A loopback server, a downloader, and a manager over an image cache in a fresh temporary directory.
struct ManagerHarness {
    let server: TestHTTPServer
    let downloader: ImageDownloader
    let directory: URL
    let cache: ImageCache
    let manager: ImageManager

    /// Another cache (and manager) over the same directory, as a new process would have.
    func makeSecondManager() -> (ImageCache, ImageManager) {
        let cache = makeCache(directory, coders: self.cache.coders)
        return (cache, ImageManager(cache: cache, loader: downloader))
    }

    /// Serves a `width × height` PNG of one colour at `path` and returns its URL.
    @discardableResult
    func serve(_ path: String, width: Int = 8, height: Int = 8, rgba: [UInt8] = [200, 10, 20, 255],
               etag: String? = nil) throws -> URL {
        server.route(path, TestResponse(body: try pngData(width: width, height: height, rgba: rgba), etag: etag))
        return server.url(path)
    }
}

func makeCache(_ directory: URL, coders: CodersManager = .shared) -> ImageCache {
    ImageCache(namespace: "manager-tests", directory: directory,
               configuration: ImageCache.Configuration(expirationInterval: nil), coders: coders)
}

/// Runs `body` with a fresh harness (its downloader and cache decoding with `coders`, the downloader logging to
/// `downloaderLogs` when given), tearing everything down (and deleting the directory) afterwards.
func withHarness(coders: CodersManager = .shared, downloaderLogs: LogStore? = nil,
                 _ body: (ManagerHarness) async throws -> Void) async throws {
    let server = try await TestHTTPServer.start()
    // Hung responses must wait for the test's cancel: the default 15 s timeout fired first on a loaded machine.
    var configuration = ImageDownloader.Configuration(downloadTimeout: .seconds(300))
    if let downloaderLogs {
        configuration.instrumentation = Instrumentation(logger: downloaderLogs.logger("downloader", level: .debug))
    }
    let downloader = ImageDownloader(configuration: configuration, coders: coders)
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("SwiftWebImageManagerTests-\(UUID().uuidString)")
    let cache = makeCache(directory, coders: coders)
    let harness = ManagerHarness(server: server, downloader: downloader, directory: directory, cache: cache,
                                 manager: ImageManager(cache: cache, loader: downloader))
    var failure: (any Error)?
    do {
        try await body(harness)
    } catch {
        failure = error
    }
    try await downloader.shutdown()
    try await server.shutdown()
    try? FileManager.default.removeItem(at: directory)
    if let failure { throw failure }
}

/// The HTTP validators stored beside `url`'s cached bytes, read in order on the cache's I/O queue (after every
/// write already queued there).
func storedValidators(_ url: URL, in cache: ImageCache) async -> HTTPValidators? {
    await withCheckedContinuation { continuation in
        ValidatorStore.readValidators(forKey: url.absoluteString, in: cache) { continuation.resume(returning: $0) }
    }
}

/// A solid-colour PNG made with our own encoder.
func pngData(width: Int, height: Int, rgba: [UInt8]) throws -> Data {
    let bytes = (0..<(width * height)).flatMap { _ in rgba }
    let image = Image(pixels: PixelBuffer(width: width, height: height, bytes: bytes), format: .png,
                      hasAlpha: rgba[3] != 255)
    return try CodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions())
}

/// One delivery to a manager completion.
struct Delivery: Sendable {
    var image: Image?
    var data: Data?
    var error: WebImageError?
    var cacheType: ImageCacheType
    var finished: Bool
    var url: URL?

    var code: Int? { error?.code }
}

/// Every delivery of one load, returned once the load has ended.
func collect(_ manager: ImageManager, _ url: URL?, options: WebImageOptions = [],
             context: WebImageContext = WebImageContext()) async -> [Delivery] {
    let (stream, continuation) = AsyncStream<Delivery>.makeStream()
    _ = manager.startLoad(url: url, options: options, context: context, progress: nil, deliver: { outcome in
        continuation.yield(Delivery(image: outcome.image, data: outcome.data, error: outcome.error,
                                    cacheType: outcome.cacheType, finished: outcome.finished, url: outcome.url))
    }, onEnd: { continuation.finish() })
    var all: [Delivery] = []
    for await delivery in stream { all.append(delivery) }
    return all
}

/// The single delivery of a load that must deliver exactly once.
func loadOnce(_ manager: ImageManager, _ url: URL?, options: WebImageOptions = [],
              context: WebImageContext = WebImageContext()) async throws -> Delivery {
    let all = await collect(manager, url, options: options, context: context)
    #expect(all.count == 1)
    return try #require(all.first)
}

/// A thread-safe list.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
}
