import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// A result's answer is built from fields made once (with the result, the job, and per TTL and second): the same
/// headers, in the same order, as when every answer formatted them.
@Suite struct ResultAnswerTests {
    private static let result = ProcessedResult(data: Data("pixels".utf8), format: .webp,
                                                lastModified: Date(timeIntervalSince1970: 1_700_000_000.7))

    private static func job(varies: Bool = false, options: ProcessingOptions = ProcessingOptions()) -> ProxyJob {
        ProxyJob(source: URL(string: "http://a.example/dir/photo.final.jpg")!, options: options,
                 format: FormatChoice(format: .webp, dependsOnAccept: varies), key: "k")
    }

    /// Expires is the second `ttl` from now: read within one second of the answer.
    private static func answer(_ request: ProxyRequest, job: ProxyJob, ttl: Int,
                               expiry: ResultExpiryFields) throws -> (ProxyResponse, expires: String) {
        for _ in 0..<3 {
            let expires = HTTPDate.format(Date(timeIntervalSinceNow: TimeInterval(ttl)))
            let response = ProxyResponse.result(result, for: request, job: job, ttl: ttl, expiry: expiry)
            if expires == HTTPDate.format(Date(timeIntervalSinceNow: TimeInterval(ttl))) { return (response, expires) }
        }
        throw CancellationError()
    }

    @Test func aResultsAnswerHasItsHeadersInOrder() throws {
        let expiry = ResultExpiryFields()
        let (response, expires) = try Self.answer(ProxyRequest(target: "/x"), job: Self.job(), ttl: 3600, expiry: expiry)
        #expect(response.status == 200 && response.body == Self.result.data)
        #expect(response.headers.map(\.name) == ["X-Content-Type-Options", "Content-Security-Policy", "Cache-Control",
                                                  "Expires", "ETag", "Last-Modified", "Content-Disposition",
                                                  "Content-Type", "Content-Length"])
        #expect(response.headers.map(\.value) == ["nosniff", "default-src 'none'; sandbox", "public, max-age=3600, immutable",
                                                   expires, Self.result.etag, "Tue, 14 Nov 2023 22:13:20 GMT",
                                                   "inline; filename=\"photo.final.webp\"", "image/webp", "6"])
    }

    @Test func headAnd304KeepTheirHeadersAndLeaveOutTheBody() throws {
        let expiry = ResultExpiryFields()
        let head = try Self.answer(ProxyRequest(isHead: true, target: "/x"), job: Self.job(), ttl: 60, expiry: expiry).0
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers.last?.name == "Content-Length" && head.headers.last?.value == "6")
        let current = try Self.answer(ProxyRequest(target: "/x", ifNoneMatch: "W/" + Self.result.etag), job: Self.job(),
                                      ttl: 60, expiry: expiry).0
        #expect(current.status == 304 && current.body.isEmpty)
        #expect(current.headers.map(\.name).last == "Content-Disposition")
        #expect(!current.headers.contains { $0.name == "Content-Length" })
    }

    @Test func varyAndAttachmentFollowTheJob() throws {
        var options = ProcessingOptions()
        options.filename = "say \"hi\"\n%"
        options.returnAttachment = true
        let job = Self.job(varies: true, options: options)
        let response = try Self.answer(ProxyRequest(target: "/x"), job: job, ttl: 60, expiry: ResultExpiryFields()).0
        let names = response.headers.map(\.name)
        #expect(names.firstIndex(of: "Vary") == names.firstIndex(of: "Last-Modified").map { $0 + 1 })
        #expect(response.headers.first { $0.name == "Content-Disposition" }?.value
                == "attachment; filename=\"say %22hi%22%0A%25.webp\"")
    }

    /// The kept Cache-Control and Expires follow the TTL asked for, whichever came before.
    @Test func theKeptFieldsFollowTheTTL() {
        let expiry = ResultExpiryFields()
        for ttl in [60, 0, 60, 31_536_000] {
            let fields = expiry.fields(ttl: ttl)
            #expect(fields.cacheControl.value == "public, max-age=\(ttl), immutable")
            #expect(fields.expires.name.rawName == "Expires")
        }
    }

    @Test(arguments: [("/a/b?x=1", "/a/b"), ("/a?b?c", "/a"), ("?q", ""), ("/é/ü?x", "/é/ü"), ("/plain", "/plain")])
    func thePathEndsAtTheQuery(target: String, path: String) {
        #expect(ProxyRequest(target: target).path == path)
    }

    /// Headers set on an answer replace the built ones.
    @Test func headersSetReplaceTheBuiltFields() throws {
        var response = try Self.answer(ProxyRequest(target: "/x"), job: Self.job(), ttl: 60, expiry: ResultExpiryFields()).0
        response.headers.append(("X-Extra", "1"))
        #expect(response.headers.count == 10 && response.headers.last?.name == "X-Extra")
    }
}
