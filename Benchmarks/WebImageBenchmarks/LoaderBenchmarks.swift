import AsyncHTTPClient
import Foundation
import TestSupport
import WebImage

/// The downloader beside raw AsyncHTTPClient against the same loopback server in the same run.
///
/// Both fetch 1,000 distinct 100 KB URLs with 6 workers; the downloader decodes through a pass-through coder
/// so the figure is the download machinery (queue, coalescing, progress, delivery), not an image codec.
/// Then 1,000 simultaneous requests for one URL: the server must count exactly one request.
enum LoaderBenchmarks {
    static let count = 1_000
    static let workers = 6

    static func run() throws {
        try Measure.waitFor { try await runAsync() }
    }

    private static func runAsync() async throws {
        let server = try await TestHTTPServer.start()
        let payload = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        server.route("/img", TestResponse(body: payload))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let downloader = ImageDownloader(coders: CodersManager(coders: [PassThroughCoder()]))

        // Warm both up (connections, code paths), then alternate rounds (which side goes first swaps each
        // round): the server shares the machine with both clients, so load from elsewhere moves every figure.
        _ = try await rawAHC(client, server: server, count: 60)
        _ = try await viaDownloader(downloader, server: server, count: 60)
        var raw = 0.0, ours = 0.0, roundRatios: [Double] = []
        for round in 0..<9 {
            let rawRate: Double, ourRate: Double
            if round.isMultiple(of: 2) {
                rawRate = Double(count) / (try await rawAHC(client, server: server, count: count, round: round))
                ourRate = Double(count) / (try await viaDownloader(downloader, server: server, count: count, round: round))
            } else {
                ourRate = Double(count) / (try await viaDownloader(downloader, server: server, count: count, round: round))
                rawRate = Double(count) / (try await rawAHC(client, server: server, count: count, round: round))
            }
            raw = max(raw, rawRate)
            ours = max(ours, ourRate)
            roundRatios.append(ourRate / rawRate)
        }
        Measure.row("1,000 x 100 KB loopback, concurrency 6", ours: ours, theirs: raw, unit: "req/s", higherIsBetter: true)
        let median = roundRatios.sorted()[roundRatios.count / 2]
        print(String(format: "  ours/raw median of rounds %.3f× (target ≥ 0.9×) %@   [best-of %.3f×]",
                     median, median >= 0.9 ? "met" : "NOT MET", ours / raw))

        // The server holds the answer 100 ms so all 1,000 requests are in flight together.
        server.route("/one", TestResponse(body: payload, delay: .milliseconds(100)))
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask { _ = try await downloader.image(for: ImageDownloadRequest(url: server.url("/one"))) }
            }
            try await group.waitForAll()
        }
        let elapsed = seconds(ContinuousClock.now - start)
        print(String(format: "1,000 concurrent requests for one URL: %.1f ms (100 ms of it the server's hold), "
                     + "server saw %d request(s)", elapsed * 1000, server.requestCount(for: "/one")))

        try await downloader.shutdown()
        try await client.shutdown()
        try await server.shutdown()
    }

    /// Seconds to fetch `count` URLs with raw AsyncHTTPClient, `workers` at a time.
    private static func rawAHC(_ client: HTTPClient, server: TestHTTPServer, count: Int, round: Int = -1) async throws -> Double {
        try await timed(count: count) { index in
            let request = HTTPClientRequest(url: server.url("/img?raw=\(round)-\(index)").absoluteString)
            let response = try await client.execute(request, timeout: .seconds(15))
            let body = try await response.body.collect(upTo: 1 << 24)
            guard response.status == .ok, body.readableBytes == 100_000 else { throw BenchmarkError.badResponse }
        }
    }

    /// Seconds to fetch `count` URLs through the downloader, `workers` at a time.
    private static func viaDownloader(_ downloader: ImageDownloader, server: TestHTTPServer, count: Int, round: Int = -1) async throws -> Double {
        try await timed(count: count) { index in
            let result = try await downloader.image(for: ImageDownloadRequest(url: server.url("/img?ours=\(round)-\(index)")))
            guard result.data.count == 100_000 else { throw BenchmarkError.badResponse }
        }
    }

    private static func timed(count: Int, _ fetch: @escaping @Sendable (Int) async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    for index in stride(from: worker, to: count, by: workers) {
                        try await fetch(index)
                    }
                }
            }
            try await group.waitForAll()
        }
        return seconds(ContinuousClock.now - start)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private enum BenchmarkError: Error { case badResponse }
}

/// Claims every byte sequence and returns a 1 × 1 image, so the loader benchmark measures no codec.
private final class PassThroughCoder: ImageCoding {
    func canDecode(_ data: Data) -> Bool { true }
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        Image(pixels: PixelBuffer(width: 1, height: 1), hasAlpha: false)
    }
    func canEncode(to format: ImageFormat) -> Bool { false }
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError.encodingFailed(format: format, reason: "benchmark coder")
    }
}
