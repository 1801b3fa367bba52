import AsyncHTTPClient
import Foundation
import NIOCore
import Prometheus
import RedisTestSupport
import TestSupport
@testable import WebImageServer

/// A proxy served with a metrics listener and its operator page, in front of a loopback origin.
final class OperatorScene: Sendable {
    let origin: TestHTTPServer
    let proxy: ImageProxy
    let server: ImageProxyServer
    let port: Int
    let metricsPort: Int
    let client: HTTPClient
    private let running: Task<Void, any Error>

    private init(origin: TestHTTPServer, proxy: ImageProxy, server: ImageProxyServer, port: Int, metricsPort: Int,
                 running: Task<Void, any Error>) {
        self.origin = origin
        self.proxy = proxy
        self.server = server
        self.port = port
        self.metricsPort = metricsPort
        self.running = running
        client = HTTPClient(eventLoopGroupProvider: .singleton)
    }

    /// Runs `body` with a started scene (history sampled every 50 ms) and always tears it down.
    static func with(_ configuration: ImageProxyConfiguration = ProxyHarness.configuration(),
                     page: OperatorPage = OperatorPage(sampleInterval: .milliseconds(50)),
                     _ body: (OperatorScene) async throws -> Void) async throws {
        let origin = try await TestHTTPServer.start()
        let proxy = ImageProxy(configuration: configuration)
        let metricsPort = try RedisServerProcess.freePort()
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let server = ImageProxyServer(proxy: proxy, host: "127.0.0.1", port: 0, drainTimeout: .seconds(10), signals: [],
                                      metrics: (PrometheusCollectorRegistry(), "127.0.0.1", metricsPort),
                                      operatorPage: page) { _, port in continuation.yield(port) }
        let running = Task { try await server.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        let scene = OperatorScene(origin: origin, proxy: proxy, server: server, port: port, metricsPort: metricsPort,
                                  running: running)
        do {
            // The metrics listener starts beside the image listener.
            var up = false
            for _ in 0..<300 where !up {
                up = (try? await scene.metrics("/metrics").status) == 200
                if !up { try await Task.sleep(for: .milliseconds(100)) }
            }
            try await body(scene)
        } catch {
            await scene.stop()
            throw error
        }
        await scene.stop()
    }

    private func stop() async {
        await server.triggerGracefulShutdown()
        _ = await running.result
        try? await client.shutdown()
        try? await origin.shutdown()
    }

    struct Answer: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as a JSON object.
        func object() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw CocoaError(.coderReadCorrupt)
            }
            return object
        }
    }

    /// A request to the image listener.
    func image(_ path: String) async throws -> Answer {
        try await send(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"))
    }

    /// A request to the metrics listener.
    func metrics(_ path: String, post body: Data? = nil, headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(metricsPort)\(path)")
        if let body {
            request.method = .POST
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return try await send(request)
    }

    /// `GET /operator/stats` as a JSON object.
    func stats() async throws -> [String: Any] {
        try await metrics("/operator/stats").object()
    }

    private func send(_ request: HTTPClientRequest) async throws -> Answer {
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 100 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                      body: Data(body.readableBytesView))
    }
}
