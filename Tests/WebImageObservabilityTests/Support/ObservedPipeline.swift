import Foundation
import Logging
import MetricsTestKit
import TestSupport
import Testing
import WebImage

/// A loopback server, and a manager over a downloader and an image cache (in a fresh directory) that all log
/// into one ``LogStore`` and make their metrics with one `TestMetrics` (passed in, never bootstrapped).
struct ObservedPipeline {
    let server: TestHTTPServer
    let logs: LogStore
    let metrics: TestMetrics
    let directory: URL
    let cache: ImageCache
    let downloader: ImageDownloader
    let manager: ImageManager

    /// A cache configuration over this pipeline's loggers and metrics.
    func cacheConfiguration(level: Logger.Level = .trace) -> ImageCache.Configuration {
        var configuration = ImageCache.Configuration(expirationInterval: nil)
        configuration.logger = logs.logger("SwiftWebImage.ImageCache", level: level)
        configuration.metricsFactory = metrics
        return configuration
    }

    /// Loads `url` through the manager; the error's code on failure.
    func load(_ url: URL, options: WebImageOptions = [.waitStoreCache])
        async -> Result<ImageLoadResult, WebImageError> {
        do {
            return .success(try await manager.image(for: url, options: options))
        } catch {
            return .failure(error)
        }
    }

    func counter(_ label: String, _ dimensions: [(String, String)] = []) throws -> Int64 {
        try metrics.expectCounter(label, dimensions).totalValue
    }

    func timerCount(_ label: String, _ dimensions: [(String, String)] = []) throws -> Int {
        try metrics.expectTimer(label, dimensions).values.count
    }
}

/// Runs `body` with a fresh pipeline whose loggers are at `level`, tearing it down (and deleting its
/// directory) afterwards.
func withObservedPipeline(level: Logger.Level = .trace, _ body: (ObservedPipeline) async throws -> Void) async throws {
    let server = try await TestHTTPServer.start()
    let logs = LogStore()
    let metrics = TestMetrics()
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("SwiftWebImageObservabilityTests-\(UUID().uuidString)")
    var cacheConfiguration = ImageCache.Configuration(expirationInterval: nil)
    cacheConfiguration.logger = logs.logger("SwiftWebImage.ImageCache", level: level)
    cacheConfiguration.metricsFactory = metrics
    let cache = ImageCache(namespace: "observed", directory: directory, configuration: cacheConfiguration)
    // Gated responses wait for the test: the default 15 s timeout must not fire first on a loaded machine.
    var downloaderConfiguration = ImageDownloader.Configuration(downloadTimeout: .seconds(300))
    downloaderConfiguration.logger = logs.logger("SwiftWebImage.ImageDownloader", level: level)
    downloaderConfiguration.metricsFactory = metrics
    let downloader = ImageDownloader(configuration: downloaderConfiguration)
    let manager = ImageManager(cache: cache, loader: downloader,
                               logger: logs.logger("SwiftWebImage.ImageManager", level: level), metricsFactory: metrics)
    let pipeline = ObservedPipeline(server: server, logs: logs, metrics: metrics, directory: directory, cache: cache,
                                    downloader: downloader, manager: manager)
    var failure: (any Error)?
    do {
        try await body(pipeline)
    } catch {
        failure = error
    }
    try await downloader.shutdown()
    try await server.shutdown()
    try? FileManager.default.removeItem(at: directory)
    if let failure { throw failure }
}

/// An opaque `width × height` image of a gradient, encoded as `format` with our own encoders.
func encodedImage(_ format: ImageFormat, width: Int = 24, height: Int = 16) throws -> Data {
    let pixels = PixelBuffer(width: width, height: height) { out in
        for i in stride(from: 0, to: out.count, by: 4) {
            out[i] = UInt8(i % 251)
            out[i + 1] = UInt8((i / 4) % 97)
            out[i + 2] = 180
            out[i + 3] = 255
        }
    }
    return try CodersManager.shared.encode(Image(pixels: pixels, hasAlpha: false), as: format,
                                           options: ImageEncodeOptions())
}
