import Foundation
import Synchronization
import TestSupport
import Testing
import WebImage

/// A thread-safe list that handlers append to.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
}

/// Runs `body` with a fresh loopback server and a downloader over it, shutting both down afterwards.
func withLoader(_ configuration: ImageDownloader.Configuration = .default, coders: CodersManager = .testing(),
                _ body: (TestHTTPServer, ImageDownloader) async throws -> Void) async throws {
    let server = try await TestHTTPServer.start()
    let downloader = ImageDownloader(configuration: configuration, coders: coders)
    do {
        try await body(server, downloader)
    } catch {
        try await downloader.shutdown()
        try await server.shutdown()
        throw error
    }
    try await downloader.shutdown()
    try await server.shutdown()
}

/// Downloads and returns the result instead of throwing.
func load(_ downloader: ImageDownloader, _ request: ImageDownloadRequest,
          progress: ImageDownloader.ProgressHandler? = nil,
          partialImage: ImageDownloader.PartialImageHandler? = nil) async -> Result<ImageDownloadResult, WebImageError> {
    do {
        return .success(try await downloader.image(for: request, progress: progress, partialImage: partialImage))
    } catch {
        return .failure(error)
    }
}

/// Starts a download and returns its token and a way to await its single result.
func start(_ downloader: ImageDownloader, _ request: ImageDownloadRequest)
    -> (token: ImageDownloadToken, result: @Sendable () async -> Result<ImageDownloadResult, WebImageError>) {
    let (stream, continuation) = AsyncStream<Result<ImageDownloadResult, WebImageError>>.makeStream()
    let token = downloader.downloadImage(with: request) { result in
        continuation.yield(result)
        continuation.finish()
    }
    return (token, {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next() ?? .failure(.invalidDownloadOperation("no result"))
    })
}

/// Downloads and returns the result with the seconds from the request to its completion handler, timed by the
/// handler itself: when the awaiting test gets a thread back depends on how busy the cooperative pool is, not
/// on the downloader.
func timedLoad(_ downloader: ImageDownloader, _ request: ImageDownloadRequest)
    async -> (result: Result<ImageDownloadResult, WebImageError>, seconds: Double) {
    let begin = ContinuousClock.now
    let (stream, continuation) = AsyncStream<(Result<ImageDownloadResult, WebImageError>, Duration)>.makeStream()
    let token = downloader.downloadImage(with: request) { result in
        continuation.yield((result, ContinuousClock.now - begin))
        continuation.finish()
    }
    var iterator = stream.makeAsyncIterator()
    guard let (result, elapsed) = await iterator.next() else {
        return (.failure(.invalidDownloadOperation("no result for \(token.url)")), 0)
    }
    return (result, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

/// The error code of a failed result, or nil on success.
func code(_ result: Result<ImageDownloadResult, WebImageError>) -> Int? {
    if case .failure(let error) = result { return error.code }
    return nil
}

/// The transport failure kind of a failed result, or nil.
func transportKind(_ result: Result<ImageDownloadResult, WebImageError>) -> TransportFailure.Kind? {
    if case .failure(.transport(let failure)) = result { return failure.kind }
    return nil
}

/// Seconds elapsed while running `body`.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// A 64 × 48 test image with `payload` extra bytes.
func testImage(payload: Int = 0) -> Data { TestImageCoder.encode(width: 64, height: 48, payload: payload) }
