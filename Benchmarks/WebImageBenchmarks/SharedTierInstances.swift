import AsyncHTTPClient
import Foundation
import TestSupport
import WebImage
import WebImageRedis
import WebImageServer

/// `webimage serve` instances in this process for the shared-tier benchmark, in front of one loopback origin
/// that serves `count` distinct small JPEGs at `/img.jpg?i=N&run=NAME`, and one HTTP client for all of them.
final class SharedTierInstances: Sendable {
    let origin: TestHTTPServer
    let client: HTTPClient
    let count: Int

    private init(origin: TestHTTPServer, client: HTTPClient, count: Int) {
        self.origin = origin
        self.client = client
        self.count = count
    }

    static func start(images count: Int) async throws -> SharedTierInstances {
        let origin = try await TestHTTPServer.start()
        let images = try (0..<count).map { index in
            let pixels = PixelBuffer(width: 64, height: 48) { out in
                for i in stride(from: 0, to: out.count, by: 4) {
                    out[i] = UInt8(truncatingIfNeeded: i / 4 &* 7 &+ index)
                    out[i + 1] = UInt8(truncatingIfNeeded: index &* 13)
                    out[i + 2] = UInt8(truncatingIfNeeded: i / 4 / 64 &* 5)
                    out[i + 3] = 255
                }
            }
            return try CodersManager.shared.encode(Image(pixels: pixels), as: .jpeg, options: ImageEncodeOptions(quality: 0.8))
        }
        origin.route("/img.jpg") { request in
            let index = request.uri.split(separator: "i=").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
            return TestResponse(headers: [("Content-Type", "image/jpeg")], body: images[index % images.count])
        }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        return SharedTierInstances(origin: origin, client: HTTPClient(eventLoopGroupProvider: .singleton,
                                                                      configuration: configuration),
                                   count: count)
    }

    /// A proxy instance; `shared` nil runs without the shared tier, whose calls otherwise have `deadline`.
    func instance(memory: Int = 64 << 20, disk: URL? = nil, shared: [RedisEndpoint]?,
                  deadline: Duration = .milliseconds(50)) async throws -> Instance {
        let shared = shared.map {
            SharedCacheConfiguration(endpoints: $0, redis: .init(client: .init(deadline: deadline)))
        }
        let configuration = ImageProxyConfiguration(
            signing: .init(allowsUnsigned: true), sources: .init(policy: SourcePolicy(allowsPrivateAddresses: true)),
            caches: .init(directory: disk, memoryBytes: memory, shared: shared),
            concurrency: .init(workers: 2, queueSize: 4_096))
        let proxy = ImageProxy(configuration: configuration)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let server = ImageProxyServer(proxy: proxy, host: "127.0.0.1", port: 0, signals: []) { _, port in
            continuation.yield(port)
        }
        let running = Task { try await server.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return Instance(proxy: proxy, server: server, port: port, running: running, origin: origin, client: client)
    }

    func shutdown() async throws {
        try await client.shutdown()
        try await origin.shutdown()
    }

    struct Instance: Sendable {
        let proxy: ImageProxy
        let server: ImageProxyServer
        let port: Int
        let running: Task<Void, any Error>
        let origin: TestHTTPServer
        let client: HTTPClient

        /// Seconds one request for image `index` of `run` took (32 px wide); throws unless it answered 200.
        func get(_ index: Int, run: String) async throws -> Double {
            let source = origin.url("/img.jpg?i=\(index)&run=\(run)").absoluteString
            let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
            let start = ContinuousClock.now
            let response = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/_/w:32/plain/\(encoded)"),
                                                    timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 24)
            guard response.status == .ok, body.readableBytes > 0 else { throw SharedTierBenchmark.Failure.status(Int(response.status.code)) }
            return SharedTierBenchmark.seconds(ContinuousClock.now - start)
        }

        func stop() async {
            await server.triggerGracefulShutdown()
            _ = await running.result
        }
    }
}
