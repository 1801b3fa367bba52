import Foundation
import InMemoryTracing
import Testing
import TestSupport
import S3TestSupport
import Tracing
import WebImage
@testable import WebImageServer

/// The service's spans (``ImageProxySpans``) under swift-distributed-tracing's in-memory tracer, bootstrapped once for
/// the test process: each test sends its own client `traceparent` and reads back that trace only.
@Suite struct ProxyTracingTests {
    let tracer = W3CTestTracer.shared
    static let imageRoute = ImageProxySpans.request(method: "GET", route: ImageProxySpans.imageRoute)

    static func named(_ spans: [FinishedInMemorySpan], _ name: String) throws -> FinishedInMemorySpan {
        let found = spans.filter { $0.operationName == name }
        #expect(found.count == 1, "\(found.count) spans named \(name) in \(spans.map(\.operationName))")
        return try #require(found.first)
    }

    @Test func aRequestIsATreeOfSpansUnderTheClientsSpanAndTheOriginJoinsIt() async throws {
        let client = W3CTestTracer.clientTraceparent()
        let source = try Fixtures.jpeg(40, 30)
        try await ProxyHarness.with(ProxyHarness.configuration { $0.sources.propagatesTraceContext = true }) { harness in
            harness.serve("/cat.jpg", source)
            let path = harness.signedPath("w:20/f:png", source: "/cat.jpg")
            let answer = try await harness.get(path, headers: [("traceparent", client.header)])
            #expect(answer.status == 200)
            let spans = tracer.spans(ofTrace: client.traceID)

            let request = try Self.named(spans, Self.imageRoute)
            #expect(request.parentSpanID == client.spanID && request.kind == .server)
            #expect(request.attributes.get("http.request.method") == .string("GET"))
            #expect(request.attributes.get("http.route") == .string(ImageProxySpans.imageRoute))
            #expect(request.attributes.get("http.response.status_code") == .int64(200))
            let signature = String(path.split(separator: "/")[0])
            #expect(request.attributes.get("url.path") == .string("/***" + path.dropFirst(signature.count + 1)))

            for name in [ImageProxySpans.signature, ImageProxySpans.resultCache(.memory), ImageProxySpans.source,
                         ImageProxySpans.stage(.decode), ImageProxySpans.stage(.process), ImageProxySpans.stage(.encode)] {
                #expect(try Self.named(spans, name).parentSpanID == request.spanID, "\(name)")
            }
            #expect(try Self.named(spans, ImageProxySpans.resultCache(.memory)).attributes.get("webimage.cache.hit")
                    == .bool(false))
            let sourceSpan = try Self.named(spans, ImageProxySpans.source)
            #expect(sourceSpan.attributes.get("webimage.source.from") == .string("download"))

            let download = try Self.named(spans, ImageProxySpans.download)
            #expect(download.parentSpanID == sourceSpan.spanID && download.kind == .client)
            #expect(download.attributes.get("server.address") == .string("127.0.0.1"))
            #expect(download.attributes.get("url.full") == .string(harness.origin.url("/cat.jpg").absoluteString))
            #expect(download.attributes.get("http.response.status_code") == .int64(200))
            #expect(download.attributes.get("http.response.body.size") == .int64(Int64(source.count)))
            #expect(try Self.named(spans, ImageProxySpans.stage(.decode)).attributes.get("webimage.format") == .string("jpeg"))
            let encode = try Self.named(spans, ImageProxySpans.stage(.encode))
            #expect(encode.attributes.get("webimage.format") == .string("png"))
            #expect(encode.attributes.get("http.response.body.size") == .int64(Int64(answer.body.count)))
            // No tier the configuration lacks has a span; every span ended inside the request's.
            #expect(spans.count == 8, "\(spans.map(\.operationName))")

            // The origin got the download span's context: its spans join the client's trace.
            let sent = harness.origin.requests(for: "/cat.jpg").first?.header("traceparent")
            #expect(sent == "00-\(client.traceID)-\(download.spanID)-01")
        }
    }

    @Test func aHitIsOneLookupAndTheContextStaysHomeByDefault() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/dog.jpg", try Fixtures.jpeg(30, 30))
            let path = harness.signedPath("w:10", source: "/dog.jpg")
            let first = W3CTestTracer.clientTraceparent(), second = W3CTestTracer.clientTraceparent()
            #expect(try await harness.get(path, headers: [("traceparent", first.header)]).status == 200)
            #expect(try await harness.get(path, headers: [("traceparent", second.header)]).status == 200)
            #expect(harness.origin.requests(for: "/dog.jpg").first?.header("traceparent") == nil)
            #expect(tracer.injectedSpans(ofTrace: first.traceID).isEmpty)
            #expect(tracer.spans(ofTrace: first.traceID).contains { $0.operationName == ImageProxySpans.download })

            let hit = tracer.spans(ofTrace: second.traceID)
            #expect(Set(hit.map(\.operationName)) == [Self.imageRoute, ImageProxySpans.signature,
                                                      ImageProxySpans.resultCache(.memory)])
            #expect(try Self.named(hit, ImageProxySpans.resultCache(.memory)).attributes.get("webimage.cache.hit")
                    == .bool(true))
            // The path was checked by the first request and remembered.
            #expect(try Self.named(hit, ImageProxySpans.signature).attributes.get("webimage.signature.remembered")
                    == .bool(true))
        }
    }

    @Test func failuresAreRecordedOnTheirSpans() async throws {
        try await ProxyHarness.with { harness in
            let client = W3CTestTracer.clientTraceparent()
            let forged = "/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/w:10/plain/http%3A%2F%2F127.0.0.1%2Fa.jpg"
            #expect(try await harness.get(forged, headers: [("traceparent", client.header)]).status == 403)
            let spans = tracer.spans(ofTrace: client.traceID)
            #expect(try Self.named(spans, ImageProxySpans.signature).errors.count == 1)
            #expect(try Self.named(spans, Self.imageRoute).attributes.get("http.response.status_code") == .int64(403))

            let missing = W3CTestTracer.clientTraceparent()
            let path = harness.signedPath("w:10", source: "/none.jpg")
            #expect(try await harness.get(path, headers: [("traceparent", missing.header)]).status != 200)
            let download = try Self.named(tracer.spans(ofTrace: missing.traceID), ImageProxySpans.download)
            #expect(download.errors.count == 1)
        }
    }

    @Test func healthChecksMakeNoSpan() async throws {
        try await ProxyHarness.with { harness in
            let client = W3CTestTracer.clientTraceparent()
            let health = try await harness.get("/health", headers: [("traceparent", client.header)])
            #expect(health.status == 200)
            #expect(tracer.spans(ofTrace: client.traceID).isEmpty)
        }
    }

    /// The S3 request carries the context unsigned: the store (moto, which checks every signature) still accepts it.
    @Test func s3RequestsStillSignWithTheContext() async throws {
        _ = tracer
        let moto = try await MotoServer.start(bucket: "images", objects: ["cat.png": try Fixtures.png(30, 20)])
        defer { moto.stop() }
        var configuration = ProxyS3SourceTests.configuration(moto)
        configuration.sources.propagatesTraceContext = true
        try await ProxyHarness.with(configuration) { harness in
            let client = W3CTestTracer.clientTraceparent()
            let answer = try await harness.get(ProxyS3SourceTests.path("w:15/f:png", "s3://images/cat.png"),
                                               headers: [("traceparent", client.header)])
            #expect(answer.status == 200, "\(answer.text)")
            let download = try Self.named(tracer.spans(ofTrace: client.traceID), ImageProxySpans.download)
            #expect(download.attributes.get("url.full") == .string("s3://images/cat.png"))
            #expect(tracer.injectedSpans(ofTrace: client.traceID) == [download.spanID])
        }
    }

    /// Each Redis call is a client span of the lookup or write that made it; background writes stay in the trace.
    @Test func redisCallsAreClientSpansOfTheirLookups() async throws {
        _ = tracer
        try await SharedTierScene.with(images: 1) { scene in
            let instance = try await scene.instance(deadline: .seconds(5))
            let client = W3CTestTracer.clientTraceparent()
            #expect(try await instance.harness.get(instance.path(0), headers: [("traceparent", client.header)]).status == 200)
            #expect(await eventually { tracer.spans(ofTrace: client.traceID).filter { $0.operationName == "SET" }.count == 2 })
            let spans = tracer.spans(ofTrace: client.traceID)
            let resultLookup = try Self.named(spans, ImageProxySpans.resultCache(.shared))
            let sourceLookup = try Self.named(spans, ImageProxySpans.sourceCache(.shared))
            #expect(resultLookup.attributes.get("webimage.cache.hit") == .bool(false))
            let gets = spans.filter { $0.operationName == "GET" }
            // The result's lookup, and the source's unless the first one missed its deadline on a loaded machine.
            #expect(gets.contains { $0.parentSpanID == resultLookup.spanID })
            #expect(gets.allSatisfy { [resultLookup.spanID, sourceLookup.spanID].contains($0.parentSpanID) })
            let port = Int64(try #require(scene.endpoints.first).port)
            for call in spans where ["GET", "SET"].contains(call.operationName) {
                #expect(call.kind == .client)
                #expect(call.attributes.get("db.system.name") == .string("redis"))
                #expect(call.attributes.get("db.operation.name") == .string(call.operationName))
                #expect(call.attributes.get("server.port") == .int64(port))
            }
        }
    }
}
