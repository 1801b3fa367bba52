import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// HTTP semantics: caching headers, validators and 304, HEAD, the operations endpoints, every error status.
@Suite struct ProxyHTTPTests {
    @Test func successHeaders() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let answer = try await harness.get(harness.signedPath("w:20", source: "/a.jpg"))
            #expect(answer.status == 200)
            #expect(answer.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(answer.header("Content-Type") == "image/jpeg")
            #expect(answer.header("Content-Length") == String(answer.body.count))
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
            #expect(answer.header("Content-Security-Policy") == "default-src 'none'; sandbox")
            let etag = try #require(answer.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\"") && !etag.hasPrefix("W/"))
            #expect(answer.header("Last-Modified").flatMap(HTTPDate.parse) != nil)
        }
    }

    @Test func configurableTTL() async throws {
        try await ProxyHarness.with(ProxyHarness.configuration { $0.responses.cacheTTL = 60 }) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let before = Date()
            let answer = try await harness.get(harness.signedPath("w:20", source: "/a.jpg"))
            let after = Date()
            #expect(answer.header("Cache-Control") == "public, max-age=60, immutable")
            // Expires is the same 60 s from the answer, to the second (HTTP dates have no fraction).
            let expires = try #require(answer.header("Expires").flatMap(HTTPDate.parse))
            #expect(expires >= before.addingTimeInterval(59) && expires <= after.addingTimeInterval(61))
        }
    }

    @Test func notModified() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let path = harness.signedPath("w:20", source: "/a.jpg")
            let first = try await harness.get(path)
            let etag = try #require(first.header("ETag")), modified = try #require(first.header("Last-Modified"))
            for headers in [[("If-None-Match", etag)], [("If-None-Match", "\"other\", " + etag)],
                            [("If-None-Match", "*")], [("If-Modified-Since", modified)]] {
                let answer = try await harness.get(path, headers: headers)
                #expect(answer.status == 304, "\(headers)")
                #expect(answer.body.isEmpty)
                #expect(answer.header("ETag") == etag)
            }
            #expect(try await harness.get(path, headers: [("If-None-Match", "\"other\"")]).status == 200)
            #expect(try await harness.get(path, headers: [("If-Modified-Since", "Sun, 06 Nov 1994 08:49:37 GMT")])
                .status == 200)
        }
    }

    @Test func headAnswersTheHeadersWithoutTheBody() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let path = harness.signedPath("w:20", source: "/a.jpg")
            let get = try await harness.get(path)
            let head = try await harness.get(path, method: .HEAD)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(get.body.count))
            #expect(head.header("ETag") == get.header("ETag"))
            #expect(try await harness.get("/health", method: .HEAD).status == 200)
        }
    }

    @Test func healthReadyAndInfo() async throws {
        try await ProxyHarness.with { harness in
            let gif = try Fixtures.animatedGIF(30, 20, frames: 4), jpeg = try Fixtures.jpeg(40, 30)
            harness.serve("/anim.gif", gif, contentType: "image/gif")
            harness.serve("/a.jpg", jpeg)
            #expect(try await harness.get("/health").text == "ok\n")
            #expect(try await harness.get("/ready").status == 200)
            let info = try await harness.get("/info" + harness.signedPath("pn:1", source: "/anim.gif"))
            #expect(info.status == 200)
            #expect(info.header("Content-Type") == "application/json")
            let fields = try JSONSerialization.jsonObject(with: info.body) as? [String: Any]
            #expect(fields?["format"] as? String == "gif")
            #expect(fields?["width"] as? Int == 30 && fields?["height"] as? Int == 20)
            #expect(fields?["pages_number"] as? Int == 4 && fields?["size"] as? Int == gif.count)
            let still = try await harness.get("/info" + harness.signedPath("", source: "/a.jpg"))
            #expect(still.text == #"{"format":"jpeg","height":30,"mime_type":"image/jpeg","orientation":1,"size":"#
                    + "\(jpeg.count)" + #","width":40}"#)
            let unsigned = try await harness.get("/info/_" + ProxyHarness.plainPart("", source: harness.origin.url("/a.jpg").absoluteString))
            #expect(unsigned.status == 403)
        }
    }

    /// imgproxy 4's statuses, error by error (its `errors.go` files): the origin's own client errors passed on, its
    /// server errors 502, a source that cannot be reached 404; COMPATIBILITY.md lists where ours differ (400 for a
    /// malformed URL).
    @Test func errorStatuses() async throws {
        // The harness's 60 s timeouts: a loaded machine (the whole suite at once on two cores) has been seen to take
        // more than 3 s to answer a 404, which a short timeout turned into a 504.
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            harness.serve("/text", Data("not an image".utf8), contentType: "image/jpeg")
            harness.origin.route("/broken", TestResponseFactory.status(500))
            for status in [401, 403, 410, 429, 503] { harness.origin.route("/\(status)", TestResponseFactory.status(status)) }
            let unreachable = "http://127.0.0.1:1/a.jpg" // tcpmux: nothing listens, the connection is refused
            let cases: [(String, Int)] = [
                (harness.signedPath("zz:1", source: "/a.jpg"), 400),
                (harness.signedPath("w:abc", source: "/a.jpg"), 400),
                ("/nosource", 400),
                ("/", 400),
                (harness.signedPath("w:20", source: "/a.jpg").replacingOccurrences(of: "w:20", with: "w:30"), 403),
                (harness.signedPath("w:20", source: "/missing.jpg"), 404),
                (harness.signedPath("w:20", source: "/text"), 422),
                (harness.signedPath("w:20", source: "/broken"), 502),
                (harness.signedPath("w:20", source: "/503"), 502),
                (harness.signedPath("w:20", source: "/401"), 401),
                (harness.signedPath("w:20", source: "/403"), 403),
                (harness.signedPath("w:20", source: "/410"), 410),
                (harness.signedPath("w:20", source: "/429"), 429),
                (URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(ProxyHarness.plainPart("w:20", source: unreachable)), 404),
            ]
            for (path, status) in cases {
                try await Self.expectRefusal(harness, path, status: status)
            }
        }
    }

    /// A HEIC result as imgproxy answers it: `image/heif` (imgproxy's table), named `.heic`.
    @Test func heicResultsAreImageHeif() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/photo.jpg", try Fixtures.jpeg(40, 30))
            let answer = try await harness.get(harness.signedPath("w:20/f:heic", source: "/photo.jpg"))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.header("Content-Type") == "image/heif")
            #expect(answer.header("Content-Disposition") == #"inline; filename="photo.heic""#)
            #expect(ImageFormat(sniffing: answer.body) == .heic)
        }
    }

    @Test func aSlowSourceIsAGatewayTimeout() async throws {
        let configuration = ProxyHarness.configuration { $0.timeouts.download = .seconds(1) }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/slow.jpg", try Fixtures.jpeg(40, 30), delay: .seconds(8))
            try await Self.expectRefusal(harness, harness.signedPath("w:20", source: "/slow.jpg"), status: 504)
        }
    }

    /// A refusal is short plain text, never cached for long: a client error not at all, a server error 10 s.
    private static func expectRefusal(_ harness: ProxyHarness, _ path: String, status: Int) async throws {
        let answer = try await harness.get(path)
        #expect(answer.status == status, "\(path): \(answer.text)")
        #expect(answer.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(!answer.text.isEmpty && answer.text.count < 300)
        #expect(answer.header("Cache-Control") == (status >= 500 ? "max-age=10" : "no-store"))
    }

    @Test func processingTimeoutIs503() async throws {
        let configuration = ProxyHarness.configuration { $0.timeouts.processing = .milliseconds(1) }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/big.png", try Fixtures.png(600, 600), contentType: "image/png")
            let answer = try await harness.get(harness.signedPath("bl:20/f:png", source: "/big.png"))
            #expect(answer.status == 503)
            #expect(answer.header("Cache-Control") == "max-age=10")
        }
    }

    @Test func resultsAndSourcesPersistOnDisk() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-proxy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = ProxyHarness.configuration { $0.caches.directory = directory }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let path = harness.signedPath("w:20", source: "/a.jpg")
            let first = try await harness.get(path)
            #expect(first.status == 200)
            // A second instance on the same directory (a restart) answers from disk.
            let restarted = ImageProxy(configuration: configuration)
            let again = await restarted.image(ProxyRequest(target: path))
            #expect(again.status == 200 && again.body == first.body)
            #expect(restarted.statistics.snapshot.diskHits == 1)
            let other = await restarted.image(ProxyRequest(target: harness.signedPath("w:10", source: "/a.jpg")))
            #expect(other.status == 200)
            #expect(restarted.statistics.snapshot.sourceCacheHits == 1)
            #expect(harness.origin.requestCount(for: "/a.jpg") == 1)
            await restarted.shutdown()
        }
    }

    @Test func stoppingRefusesNewWorkButServesTheCache() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let cached = harness.signedPath("w:20", source: "/a.jpg")
            #expect(try await harness.get(cached).status == 200)
            harness.proxy.stopAccepting()
            #expect(try await harness.get("/ready").status == 503)
            #expect(try await harness.get(cached).status == 200)
            let fresh = try await harness.get(harness.signedPath("w:10", source: "/a.jpg"))
            #expect(fresh.status == 503)
            #expect(fresh.header("Cache-Control") == "max-age=10")
            let info = try await harness.get("/info" + harness.signedPath("", source: "/a.jpg"), method: .HEAD)
            #expect(info.status == 503 && info.body.isEmpty)
        }
    }

    @Test func httpDates() {
        let date = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    }
}
