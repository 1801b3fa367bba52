import AsyncHTTPClient
import Foundation
import NIOCore
import TestSupport
@testable import WebImageServer

/// A proxy served with a metrics listener and its operator page (a ``ProxyHarness`` with one), in front of a
/// loopback origin.
final class OperatorScene: Sendable {
    let harness: ProxyHarness
    let metricsPort: Int

    var origin: TestHTTPServer { harness.origin }
    var proxy: ImageProxy { harness.proxy }
    var port: Int { harness.port }

    private init(harness: ProxyHarness, metricsPort: Int) {
        self.harness = harness
        self.metricsPort = metricsPort
    }

    /// Runs `body` with a started scene (history sampled every 50 ms) and always tears it down.
    static func with(_ configuration: ImageProxyConfiguration = ProxyHarness.configuration(),
                     page: OperatorPage = OperatorPage(sampleInterval: .milliseconds(50)),
                     _ body: (OperatorScene) async throws -> Void) async throws {
        let harness = try await ProxyHarness.start(configuration, operatorPage: page)
        let scene = OperatorScene(harness: harness, metricsPort: harness.metricsPort ?? 0)
        do {
            try await body(scene)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    typealias Answer = ProxyHarness.Answer

    /// A request to the image listener.
    func image(_ path: String) async throws -> Answer {
        try await harness.get(path)
    }

    /// A request to the metrics listener.
    func metrics(_ path: String, post body: Data? = nil, headers: [(String, String)] = []) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(metricsPort)\(path)")
        if let body {
            request.method = .POST
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return try await harness.send(request)
    }

    /// `GET /operator/stats` as a JSON object.
    func stats() async throws -> [String: Any] {
        try await metrics("/operator/stats").object()
    }
}

extension ProxyHarness.Answer {
    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }
}
