import Foundation
import Testing
import TestSupport
import S3TestSupport
import AWSSigV4
import WebImage
@testable import WebImageServer

/// S3 sources beyond the happy path: revalidation with the object's ETag, keys that need encoding and the longest
/// key S3 takes against a real S3-compatible server (`moto_server`), and a store that answers XML errors or hangs
/// (a loopback server standing in for a broken store) — each a documented status with no secret in the answer.
@Suite struct ProxyS3StoreTests {
    static let secret = "s3cr3t-wJalrXUtnFEMI-K7MDENG"

    @Test func aStaleObjectIsRevalidatedWithItsETag() async throws {
        let moto = try await MotoServer.start(bucket: "images", objects: ["cat.png": try Fixtures.png(40, 20)])
        defer { moto.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-s3-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ProxyS3SourceTests.configuration(moto)
        configuration.caches.directory = directory
        configuration.caches.revalidateSourcesAfter = .zero
        try await ProxyHarness.with(configuration) { harness in
            let first = try await harness.get(ProxyS3SourceTests.path("w:20/f:png", "s3://images/cat.png"))
            #expect(first.status == 200)
            #expect(try first.image().pixelSize == PixelSize(width: 20, height: 10))
            // The same bytes written again: the same ETag, so the store answers 304 to the conditional GET.
            try await moto.put("cat.png", try Fixtures.png(40, 20), bucket: "images")
            let confirmed = try await harness.get(ProxyS3SourceTests.path("w:10/f:png", "s3://images/cat.png"))
            #expect(confirmed.status == 200)
            #expect(try confirmed.image().pixelSize == PixelSize(width: 10, height: 5))
            #expect(harness.proxy.statistics.snapshot.sourcesNotModified == 1)
            // New bytes: a new ETag, the store answers 200 and the copy is replaced.
            try await moto.put("cat.png", try Fixtures.png(30, 30), bucket: "images")
            let changed = try await harness.get(ProxyS3SourceTests.path("w:12/f:png", "s3://images/cat.png"))
            #expect(changed.status == 200)
            #expect(try changed.image().pixelSize == PixelSize(width: 12, height: 12))
            #expect(harness.proxy.statistics.snapshot.sourcesNotModified == 1)
            #expect(harness.proxy.statistics.snapshot.sourceDownloads == 3)
        }
    }

    @Test func keysThatNeedEncodingAndTheLongestKey() async throws {
        let odd = "odd/a=b,c;d&e$f@g!h'i*~.png"
        let longest = "long/" + String(repeating: "k", count: 1024 - "long/".count - ".png".count) + ".png"
        #expect(longest.utf8.count == 1024)
        let moto = try await MotoServer.start(bucket: "images", objects: [:])
        defer { moto.stop() }
        try await moto.put(odd, try Fixtures.png(30, 20), bucket: "images")
        try await moto.put(longest, try Fixtures.png(20, 40), bucket: "images")
        try await ProxyHarness.with(ProxyS3SourceTests.configuration(moto)) { harness in
            let oddAnswer = try await harness.get(ProxyS3SourceTests.path("w:15/f:png", "s3://images/" + odd))
            #expect(oddAnswer.status == 200, "\(oddAnswer.text)")
            #expect(try oddAnswer.image().pixelSize == PixelSize(width: 15, height: 10))
            let longAnswer = try await harness.get(ProxyS3SourceTests.path("w:10/f:png", "s3://images/" + longest))
            #expect(longAnswer.status == 200, "\(longAnswer.text)")
            #expect(try longAnswer.image().pixelSize == PixelSize(width: 10, height: 20))
        }
    }

    /// A loopback server as the store's endpoint, answering every request with `response`.
    static func withBrokenStore(_ response: TestResponse, downloadTimeout: Duration = .seconds(60),
                                _ body: (ProxyHarness, TestHTTPServer) async throws -> Void) async throws {
        let store = try await TestHTTPServer.start()
        defer { Task { try? await store.shutdown() } }
        let configuration = ProxyHarness.configuration {
            $0.sources.s3 = .init(endpoint: store.url("/"), credentials: .init(accessKeyID: "AKIDEXAMPLE",
                                                                              secretAccessKey: Self.secret))
            $0.timeouts.download = downloadTimeout
        }
        store.route("/images/cat.png", response)
        try await ProxyHarness.with(configuration) { harness in try await body(harness, store) }
    }

    static func xmlError(_ code: String, _ message: String) -> Data {
        Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Error><Code>\(code)</Code><Message>\(message)</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>
        """.utf8)
    }

    @Test func xmlErrorsOfTheStoreAreDocumentedStatuses() async throws {
        // What AWS answers to a request signed by a clock an hour off, to a missing key, to an internal error.
        let cases: [(TestResponse, Int)] = [
            (TestResponse(status: 403, headers: [("Content-Type", "application/xml")],
                          body: Self.xmlError("RequestTimeTooSkewed", "The difference between the request time and the current time is too large.")), 403),
            (TestResponse(status: 403, headers: [("Content-Type", "application/xml")],
                          body: Self.xmlError("SignatureDoesNotMatch", "The request signature we calculated does not match")), 403),
            (TestResponse(status: 404, headers: [("Content-Type", "application/xml")],
                          body: Self.xmlError("NoSuchKey", "The specified key does not exist.")), 404),
            (TestResponse(status: 500, headers: [("Content-Type", "application/xml")],
                          body: Self.xmlError("InternalError", "We encountered an internal error.")), 502),
        ]
        for (response, status) in cases {
            try await Self.withBrokenStore(response) { harness, store in
                let answer = try await harness.get(ProxyS3SourceTests.path("w:10", "s3://images/cat.png"))
                #expect(answer.status == status, "\(answer.text)")
                #expect(!answer.text.contains(Self.secret) && !answer.text.contains("AKIDEXAMPLE"))
                // The request reached the store signed, the secret itself never sent.
                let sent = try #require(store.requests(for: "/images/cat.png").first)
                #expect(sent.header("Authorization")?.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") == true)
                #expect(!sent.headers.contains { $0.value.contains(Self.secret) })
            }
        }
    }

    @Test func aHungStoreIsAGatewayTimeout() async throws {
        try await Self.withBrokenStore(TestResponse(behavior: .hang), downloadTimeout: .seconds(1)) { harness, _ in
            let started = ContinuousClock.now
            let answer = try await harness.get(ProxyS3SourceTests.path("w:10", "s3://images/cat.png"))
            #expect(answer.status == 504)
            #expect(ContinuousClock.now - started < .seconds(30))
        }
    }
}
