import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import WebImage

/// `webimage serve --otlp-endpoint`: the spans of a request reach a real OTLP/HTTP receiver on loopback (a test
/// HTTP server taking the exporter's `POST /v1/traces`), in the client's trace.
@Suite struct ServeTracingTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func theSpansOfARequestReachAnOTLPReceiverInTheClientsTrace() async throws {
        let origin = try await TestHTTPServer.start()
        let receiver = try await TestHTTPServer.start()
        defer { Task { try? await origin.shutdown(); try? await receiver.shutdown() } }
        let jpeg = try CodersManager.shared.encode(Image(pixels: PixelBuffer(width: 40, height: 30) { _ in }),
                                                   as: .jpeg, options: ImageEncodeOptions())
        origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: jpeg))
        receiver.route("/v1/traces", TestResponse(headers: [("Content-Type", "application/x-protobuf")]))
        let serve = try await ServeProcess.start(
            ["--otlp-endpoint", "http://127.0.0.1:\(receiver.url("").port ?? 0)", "--propagate-trace-context"],
            environment: ["OTEL_BSP_SCHEDULE_DELAY": "100", "OTEL_SERVICE_NAME": "webimage-test"])
        defer { _ = serve.stop() }

        let traceID = (0..<16).map { _ in UInt8.random(in: 0...255) }, clientSpan = (0..<8).map { _ in UInt8.random(in: 0...255) }
        let source = origin.url("/a.jpg").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(serve.port)/_/w:20/plain/\(source)@png")))
        request.setValue("00-\(Self.hex(traceID))-\(Self.hex(clientSpan))-01", forHTTPHeaderField: "traceparent")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        let names = ["GET /{signature}/{options}/{source}", "webimage.signature", "webimage.result_cache.memory",
                     "webimage.result_cache.disk", "webimage.source", "webimage.source_cache.disk", "webimage.download",
                     "webimage.decode", "webimage.process", "webimage.encode"]
        func posted() -> Data { receiver.requests(for: "/v1/traces").reduce(into: Data()) { $0.append($1.body) } }
        let arrived = await eventually(timeout: 30) {
            let body = posted()
            return names.allSatisfy { body.range(of: Data($0.utf8)) != nil }
        }
        #expect(arrived, "the receiver got \(receiver.requests(for: "/v1/traces").count) posts")
        let exports = receiver.requests(for: "/v1/traces")
        #expect(exports.allSatisfy { $0.method == "POST" && $0.header("Content-Type") == "application/x-protobuf" })
        let body = posted()
        // The spans are the client's trace (its id, raw, in the protobuf), sent by the service named by OTEL_SERVICE_NAME.
        #expect(body.range(of: Data(traceID)) != nil)
        #expect(body.range(of: Data(clientSpan)) != nil)
        #expect(body.range(of: Data("webimage-test".utf8)) != nil)
        // The origin got the same trace.
        let sent = try #require(origin.requests(for: "/a.jpg").first?.header("traceparent"))
        #expect(sent.hasPrefix("00-\(Self.hex(traceID))-"))
        #expect(serve.stop() == 0)
        #expect(!serve.stderr.contains(" error "), "\(serve.stderr)")
    }
}
