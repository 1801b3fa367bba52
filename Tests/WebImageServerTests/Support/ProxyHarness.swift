import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Prometheus
import Synchronization
import TestSupport
import WebImage
@testable import WebImageServer

/// A proxy served in-process on 127.0.0.1 (port 0) in front of a loopback origin, and a client for it.
final class ProxyHarness: Sendable {
    static let keyPair = URLSigner.KeyPair(keyHex: "736563726574", saltHex: "68656C6C6F")!

    let origin: TestHTTPServer
    let proxy: ImageProxy
    let server: ImageProxyServer
    let port: Int
    /// The metrics listener's port, when the harness has an operator page.
    let metricsPort: Int?
    let client: HTTPClient
    private let running: Task<Void, any Error>
    private let ownsOrigin: Bool

    private init(origin: TestHTTPServer, ownsOrigin: Bool, proxy: ImageProxy, server: ImageProxyServer, port: Int,
                 metricsPort: Int?, running: Task<Void, any Error>) {
        self.origin = origin
        self.ownsOrigin = ownsOrigin
        self.proxy = proxy
        self.server = server
        self.port = port
        self.metricsPort = metricsPort
        self.running = running
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 128
        // The test's own requests carry only the trace context a test gives them (tracing tests send their own).
        configuration.tracing.tracer = nil
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The default test configuration: signed with the imgproxy example key, loopback sources allowed, and
    /// deadlines of a minute: on a loaded two-core machine this process's tasks may wait seconds for a thread,
    /// and only the tests about deadlines (which set their own) may see one pass.
    static func configuration(_ adjust: (inout ImageProxyConfiguration) -> Void = { _ in }) -> ImageProxyConfiguration {
        var configuration = ImageProxyConfiguration(signing: .init(keyPairs: [keyPair]),
                                                    sources: .init(policy: SourcePolicy(allowsPrivateAddresses: true)),
                                                    timeouts: .init(download: .seconds(60), downloadIdle: .seconds(60),
                                                                    processing: .seconds(60)),
                                                    concurrency: .init(workers: 2))
        // Most tests of animations want their frames; imgproxy's default of one frame has tests of its own.
        configuration.limits.maxAnimationFrames = 1000
        adjust(&configuration)
        return configuration
    }

    /// Runs `body` with a started harness and always tears it down.
    static func with(_ configuration: ImageProxyConfiguration = configuration(),
                     resolver: any HostResolving = SystemHostResolver(),
                     _ body: (ProxyHarness) async throws -> Void) async throws {
        let harness = try await start(configuration, resolver: resolver)
        do {
            try await body(harness)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    /// A started harness; with `origin` (shared by several harnesses) it leaves that origin running on stop. With
    /// `operatorPage`, a metrics listener on a free port serves it too. Returns once every listener accepts
    /// connections (a port chosen beforehand could be taken by another test's listener in between).
    static func start(_ configuration: ImageProxyConfiguration,
                      resolver: any HostResolving = SystemHostResolver(),
                      origin shared: TestHTTPServer? = nil,
                      operatorPage: OperatorPage? = nil) async throws -> ProxyHarness {
        let origin: TestHTTPServer
        if let shared { origin = shared } else { origin = try await TestHTTPServer.start() }
        let proxy = ImageProxy(configuration: configuration, resolver: resolver)
        let (ports, imagePort) = AsyncStream<Int>.makeStream()
        let (metricsPorts, metricsPort) = AsyncStream<Int>.makeStream()
        let server = ImageProxyServer(proxy: proxy, host: "127.0.0.1", port: 0, drainTimeout: .seconds(10), signals: [],
                                      metrics: operatorPage.map { _ in (PrometheusCollectorRegistry(), "127.0.0.1", 0) },
                                      operatorPage: operatorPage, onListening: { _, port in imagePort.yield(port) },
                                      onMetricsListening: { _, port in metricsPort.yield(port) })
        let running = Task {
            defer { imagePort.finish(); metricsPort.finish() }
            try await server.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { try await running.value; throw CancellationError() }
        var metrics: Int?
        if operatorPage != nil {
            var metricsIterator = metricsPorts.makeAsyncIterator()
            guard let port = await metricsIterator.next() else { try await running.value; throw CancellationError() }
            metrics = port
        }
        return ProxyHarness(origin: origin, ownsOrigin: shared == nil, proxy: proxy, server: server, port: port,
                            metricsPort: metrics, running: running)
    }

    func stop() async {
        await server.triggerGracefulShutdown()
        _ = await running.result
        try? await client.shutdown()
        if ownsOrigin { try? await origin.shutdown() }
    }

    /// Waits for the server task to end (after a graceful shutdown was triggered).
    func waitUntilStopped() async {
        _ = await running.result
    }

    // MARK: - URLs

    /// `/<signature>/<options>/plain/<percent-encoded origin URL>[@ext]`, signed with the test key.
    func signedPath(_ options: String, source path: String, ext: String? = nil) -> String {
        URLSigner(keyPairs: [Self.keyPair]).sign(Self.plainPart(options, source: origin.url(path).absoluteString, ext: ext))
    }

    static func plainPart(_ options: String, source: String, ext: String? = nil) -> String {
        let encoded = source.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? source
        let prefix = options.isEmpty ? "" : "/" + options
        return prefix + "/plain/" + encoded + (ext.map { "@" + $0 } ?? "")
    }

    // MARK: - Requests

    struct Answer: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: Data

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        var text: String { String(decoding: body, as: UTF8.self) }

        func image() throws -> Image { try CodersManager.shared.decode(body, options: ImageDecodeOptions()) }
    }

    func get(_ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [],
             timeout: TimeAmount = .seconds(30)) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return try await send(request, timeout: timeout)
    }

    /// Any request (to the metrics listener too) with the harness's client, its whole body read.
    func send(_ request: HTTPClientRequest, timeout: TimeAmount = .seconds(30)) async throws -> Answer {
        let response = try await client.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 100 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                      body: Data(body.readableBytesView))
    }

    /// Registers `data` at `path` on the origin.
    func serve(_ path: String, _ data: Data, contentType: String = "image/jpeg", delay: Duration = .zero,
               behavior: TestResponse.Behavior = .normal) {
        origin.route(path, TestResponse(headers: [("Content-Type", contentType)], body: data, behavior: behavior,
                                        delay: delay))
    }
}
