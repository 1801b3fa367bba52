import Foundation
import Synchronization
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// A cached source older than `revalidateSourcesAfter` is confirmed with its origin by a conditional request
/// (its `ETag`/`Last-Modified`): a 304 serves the copy, a change replaces it, a failing origin leaves it served,
/// a source that is gone is removed.
@Suite struct ProxySourceRevalidationTests {
    /// What the origin answers next, changed by the test between requests.
    enum OriginState: Sendable {
        case image(Data, etag: String)
        case status(Int)
    }

    /// The origin's next answer, shared with its route.
    final class Origin: Sendable {
        let state: Mutex<OriginState>
        init(_ state: OriginState) { self.state = Mutex(state) }
    }

    static func withProxy(revalidateAfter: Duration,
                          _ body: (ProxyHarness, Origin) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-reval-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = ProxyHarness.configuration {
            $0.caches.directory = directory
            $0.caches.revalidateSourcesAfter = revalidateAfter
        }
        let origin = Origin(.image(try Fixtures.png(40, 20), etag: #""v1""#))
        try await ProxyHarness.with(configuration) { harness in
            harness.origin.route("/a.png") { request in
                switch origin.state.withLock({ $0 }) {
                case .status(let status): return TestResponse(status: status)
                case .image(let data, let etag):
                    if request.header("If-None-Match") == etag {
                        return TestResponse(status: 304, headers: [("ETag", etag)])
                    }
                    return TestResponse(headers: [("Content-Type", "image/png"), ("ETag", etag),
                                                  ("Last-Modified", "Wed, 21 Oct 2026 07:28:00 GMT")], body: data)
                }
            }
            try await body(harness, origin)
        }
    }

    static func size(_ answer: ProxyHarness.Answer) throws -> PixelSize { try answer.image().pixelSize }

    @Test func aStaleCopyIsConfirmedReplacedKeptOrDropped() async throws {
        try await Self.withProxy(revalidateAfter: .zero) { harness, origin in
            let first = try await harness.get(harness.signedPath("w:20/f:png", source: "/a.png"))
            #expect(first.status == 200)
            #expect(try Self.size(first) == PixelSize(width: 20, height: 10))
            #expect(harness.origin.requests(for: "/a.png").last?.header("If-None-Match") == nil)

            // Unchanged: a conditional request, a 304, the cached bytes.
            let confirmed = try await harness.get(harness.signedPath("w:10/f:png", source: "/a.png"))
            #expect(confirmed.status == 200)
            #expect(try Self.size(confirmed) == PixelSize(width: 10, height: 5))
            let conditional = try #require(harness.origin.requests(for: "/a.png").last)
            #expect(conditional.header("If-None-Match") == #""v1""#)
            #expect(conditional.header("If-Modified-Since") == nil)
            #expect(harness.proxy.statistics.snapshot.sourcesNotModified == 1)

            // Changed at the origin: the new bytes replace the copy.
            let square = try Fixtures.png(30, 30)
            origin.state.withLock { $0 = .image(square, etag: #""v2""#) }
            let changed = try await harness.get(harness.signedPath("w:12/f:png", source: "/a.png"))
            #expect(changed.status == 200)
            #expect(try Self.size(changed) == PixelSize(width: 12, height: 12))

            // The origin fails: the copy (now v2) is served, and counted.
            origin.state.withLock { $0 = .status(503) }
            let kept = try await harness.get(harness.signedPath("w:6/f:png", source: "/a.png"))
            #expect(kept.status == 200)
            #expect(try Self.size(kept) == PixelSize(width: 6, height: 6))
            #expect(harness.proxy.statistics.snapshot.staleSourcesServed == 1)

            // Gone: 404, and the copy removed, so the next request fetches the source whole.
            origin.state.withLock { $0 = .status(404) }
            #expect(try await harness.get(harness.signedPath("w:7/f:png", source: "/a.png")).status == 404)
            let original = try Fixtures.png(40, 20)
            origin.state.withLock { $0 = .image(original, etag: #""v1""#) }
            let refetched = try await harness.get(harness.signedPath("w:8/f:png", source: "/a.png"))
            #expect(refetched.status == 200)
            #expect(try Self.size(refetched) == PixelSize(width: 8, height: 4))
            #expect(harness.origin.requests(for: "/a.png").last?.header("If-None-Match") == nil)
            #expect(harness.proxy.statistics.snapshot.sourcesNotModified == 1)
        }
    }

    @Test func aFreshCopyIsServedWithoutAskingTheOrigin() async throws {
        try await Self.withProxy(revalidateAfter: .seconds(3600)) { harness, _ in
            let first = try await harness.get(harness.signedPath("w:20/f:png", source: "/a.png"))
            let second = try await harness.get(harness.signedPath("w:10/f:png", source: "/a.png"))
            #expect(first.status == 200 && second.status == 200)
            #expect(harness.origin.requestCount(for: "/a.png") == 1)
            #expect(harness.proxy.statistics.snapshot.sourceCacheHits == 1)
        }
    }

    @Test func recordsRoundTripAndAgeOut() throws {
        let validators = HTTPValidators(etag: #"W/"x""#, lastModified: "Wed, 21 Oct 2026 07:28:00 GMT")
        let confirmed = Date(timeIntervalSince1970: 1_000_000)
        let record = SourceRecord(confirmedAt: confirmed, validators: validators)
        let read = try #require(SourceRecord(stored: record.stored))
        #expect(read == record && read.etag == validators.etag && read.lastModified == validators.lastModified)
        #expect(read.validators == HTTPValidators(etag: #"W/"x""#))
        let dated = SourceRecord(confirmedAt: confirmed, validators: HTTPValidators(lastModified: "Wed, 21 Oct 2026 07:28:00 GMT"))
        #expect(dated.validators == HTTPValidators(lastModified: "Wed, 21 Oct 2026 07:28:00 GMT"))
        #expect(read.isFresh(at: confirmed.addingTimeInterval(59), for: .seconds(60)))
        #expect(!read.isFresh(at: confirmed.addingTimeInterval(60), for: .seconds(60)))
        #expect(SourceRecord(stored: Data()) == nil)
        #expect(SourceRecord(stored: Data("junk".utf8)) == nil)
        #expect(SourceRecord(confirmedAt: confirmed, validators: nil).validators == nil)
    }
}
