import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct RequestHeaderTests {
    @Test func defaultHeadersAreSentAndCanBeChangedAtRunTime() async throws {
        try await withLoader { server, downloader in
            server.route("/a", TestResponse(body: testImage()))
            server.route("/b", TestResponse(body: testImage()))
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/a")))
            let first = try #require(server.requests(for: "/a").first)
            #expect(first.header("Accept") == "image/*,*/*;q=0.8")
            #expect(first.header("User-Agent") == "SwiftWebImage/\(ImageDownloader.Configuration.version)")
            downloader.setValue("yes", forHTTPHeaderField: "X-Test")
            downloader.setValue(nil, forHTTPHeaderField: "Accept")
            #expect(downloader.value(forHTTPHeaderField: "x-test") == "yes")
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/b")))
            let second = try #require(server.requests(for: "/b").first)
            #expect(second.header("X-Test") == "yes")
            #expect(second.header("Accept") == nil)
        }
    }

    @Test func requestModifierRewritesTheOutgoingRequest() async throws {
        try await withLoader { server, downloader in
            server.route("/a", TestResponse(body: testImage()))
            let request = ImageDownloadRequest(url: server.url("/a"), requestModifier: { request in
                var request = request
                request.setValue("Bearer t", forHeader: "Authorization")
                return request
            })
            #expect(code(await load(downloader, request)) == nil)
            #expect(server.requests(for: "/a").first?.header("Authorization") == "Bearer t")
        }
    }

    @Test func responseModifierAndDecryptorRewriteTheResponse() async throws {
        try await withLoader { server, downloader in
            let image = TestImageCoder.encode(width: 9, height: 7)
            server.route("/enc", TestResponse(status: 299, body: Data(image.map { $0 ^ 0x5A })))
            let request = ImageDownloadRequest(
                url: server.url("/enc"),
                responseModifier: { head in
                    var head = head
                    head.status = 200
                    return head
                },
                decryptor: { data, _ in Data(data.map { $0 ^ 0x5A }) })
            let result = try await downloader.image(for: request)
            #expect(result.image.pixelWidth == 9)
            #expect(result.data == image)
        }
    }

    @Test func basicAuthAnswersTheChallengeOnce() async throws {
        let good = ImageDownloader.Configuration(username: "user", password: "secret")
        try await withLoader(good) { server, downloader in
            server.route("/private", TestResponse(body: testImage(), basicAuth: ("user", "secret")))
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/private")))
            #expect(code(result) == nil)
            let requests = server.requests(for: "/private")
            #expect(requests.count == 2)
            #expect(requests.first?.header("Authorization") == nil)
            #expect(requests.last?.header("Authorization") == "Basic " + Data("user:secret".utf8).base64EncodedString())
        }
        let bad = ImageDownloader.Configuration(username: "user", password: "wrong")
        try await withLoader(bad) { server, downloader in
            server.route("/private", TestResponse(body: testImage(), basicAuth: ("user", "secret")))
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/private")))
            guard case .failure(.invalidDownloadStatusCode(401, _)) = result else {
                Issue.record("expected 401, got \(result)")
                return
            }
            #expect(server.requestCount(for: "/private") == 2)
        }
    }

    @Test func revalidationReturnsValidatorsThenEndsWithNotModified() async throws {
        try await withLoader { server, downloader in
            server.route("/r", TestResponse(body: testImage(), etag: "\"v1\"", lastModified: "Sat, 21 Nov 2026 10:00:00 GMT"))
            let first = try await downloader.image(for: ImageDownloadRequest(url: server.url("/r")))
            let validators = try #require(first.validators)
            #expect(validators == HTTPValidators(etag: "\"v1\"", lastModified: "Sat, 21 Nov 2026 10:00:00 GMT"))
            let again = ImageDownloadRequest(url: server.url("/r"), options: .refreshCached, cachedValidators: validators)
            #expect(code(await load(downloader, again)) == 1002)
            let conditional = try #require(server.requests(for: "/r").last)
            #expect(conditional.header("If-None-Match") == "\"v1\"")
            #expect(conditional.header("If-Modified-Since") == "Sat, 21 Nov 2026 10:00:00 GMT")
            server.route("/r", TestResponse(body: testImage(), etag: "\"v2\""))
            let changed = try await downloader.image(for: again)
            #expect(changed.validators?.etag == "\"v2\"")
        }
    }

    @Test func cookiesAreSentBackOnlyWithHandleCookies() async throws {
        try await withLoader { server, downloader in
            server.route("/set", TestResponse(headers: [("Set-Cookie", "session=abc; Path=/")], body: testImage()))
            server.route("/with", TestResponse(body: testImage()))
            server.route("/without", TestResponse(body: testImage()))
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/set"), options: .handleCookies))
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/with"), options: .handleCookies))
            _ = await load(downloader, ImageDownloadRequest(url: server.url("/without")))
            #expect(server.requests(for: "/with").first?.header("Cookie") == "session=abc")
            #expect(server.requests(for: "/without").first?.header("Cookie") == nil)
        }
    }
}
