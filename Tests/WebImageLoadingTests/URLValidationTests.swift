import Foundation
import TestSupport
import Testing
import WebImage

/// URLs that AsyncHTTPClient or NIO would trap on, or would silently connect elsewhere for, end in 1000 before
/// any connection: in the downloader, the manager, the prefetcher, and for every redirect target.
@Suite struct URLValidationTests {
    /// The URLs of the crash report, and their relatives.
    static let badPorts = ["http://127.0.0.1:65536/x.jpg", "http://[::1]:99999/x.jpg", "http://127.0.0.1:4294967297/x.jpg",
                           "http://127.0.0.1:0/x.jpg", "https://example.com:99999999999999999999999/x.jpg",
                           "http://localhost:65536/x.jpg"]

    @Test(arguments: [
        ("http://127.0.0.1:65536/x.jpg", "its port 65536 is outside 1…65535"),
        ("http://[::1]:99999/x.jpg", "its port 99999 is outside 1…65535"),
        ("http://127.0.0.1:4294967297/x.jpg", "its port 4294967297 is outside 1…65535"),
        ("http://127.0.0.1:0/x.jpg", "its port 0 is outside 1…65535"),
        // Foundation reads no port here: the client would have connected to port 80.
        ("http://127.0.0.1:99999999999999999999999/x", "its port 99999999999999999999999 is outside 1…65535"),
        ("http://[zz]/x", "its host '[zz]' is not a valid IPv6 address"),
        ("http://[::1%25]/x", "its host '[::1%25]' has a bad IPv6 zone identifier"),
        ("http://exa%20mple.com/x", "its host 'exa%20mple.com' has a character no host name may have"),
        ("http://127.0.0.1%0d%0a/x", "its host '127.0.0.1%0d%0a' has a character no host name may have"),
        ("http:///x", "it has no host"),
    ])
    func invalidURLsAreNamed(url: String, problem: String) throws {
        let parsed = try #require(URL(string: url))
        #expect(URLValidation.problem(with: parsed) == problem)
        #expect(throws: WebImageError.self) { try URLValidation.validate(parsed) }
    }

    @Test(arguments: ["http://127.0.0.1:1/x", "http://127.0.0.1:65535/x", "http://h:/x", "https://user:pw@host.example:8443/a?b#c",
                      "http://[::1]/x", "http://[::1%25lo]:8080/x", "http://[::ffff:127.0.0.1]/x", "http://xn--n3h.example/",
                      "HTTP://LOCALHOST:080/x", "file:///tmp/a.png", "custom://anything:999999/"])
    func validURLsPass(url: String) throws {
        #expect(URLValidation.problem(with: try #require(URL(string: url))) == nil)
    }

    @Test func downloaderAnswersBadPortsWith1000() async throws {
        try await withLoader { _, downloader in
            for text in Self.badPorts {
                let result = await load(downloader, ImageDownloadRequest(url: try #require(URL(string: text))))
                guard case .failure(let error) = result else {
                    Issue.record("\(text) loaded")
                    continue
                }
                #expect(error.code == 1000, "\(text): \(error)")
                #expect(error.description.contains("1…65535"), "\(text): \(error)")
            }
        }
    }

    @Test func managerAndPrefetcherAnswerBadPortsWith1000() async throws {
        let manager = ImageManager(cache: CachesManager(), loader: LoadersManager())
        for text in Self.badPorts {
            do {
                _ = try await manager.image(for: text)
                Issue.record("\(text) loaded")
            } catch {
                #expect(error.code == 1000, "\(text): \(error)")
            }
        }
        let prefetcher = ImagePrefetcher(manager: manager)
        let (finished, skipped) = await withCheckedContinuation { continuation in
            prefetcher.prefetch(Self.badPorts.compactMap(URL.init(string:))) { finished, skipped in
                continuation.resume(returning: (finished, skipped))
            }
        }
        #expect(finished == Self.badPorts.count)
        #expect(skipped == Self.badPorts.count)
    }

    @Test func redirectsToBadTargetsFailWith1000AndConnectNowhere() async throws {
        try await withLoader { server, downloader in
            let targets = ["/to-v4": "http://127.0.0.1:99999/x.jpg", "/to-v6": "http://[::1]:70000/x.jpg",
                           "/to-huge": "http://127.0.0.1:4294967297/x.jpg", "/to-zero": "http://127.0.0.1:0/x.jpg",
                           "/to-file": "file:///etc/passwd", "/to-bracket": "http://[zz]:\(server.port)/x.jpg"]
            for (path, location) in targets {
                server.route(path, TestResponse(status: 302, headers: [("Location", location)]))
                let result = await load(downloader, ImageDownloadRequest(url: server.url(path)))
                guard case .failure(let error) = result else {
                    Issue.record("\(path) loaded")
                    continue
                }
                #expect(error.code == 1000, "\(path): \(error)")
                #expect(error.description.contains("a redirect target"), "\(path): \(error)")
            }
            #expect(server.totalRequestCount == targets.count)
        }
    }

    @Test func redirectCyclesStopAndCredentialsStayOnTheirOrigin() async throws {
        let other = try await TestHTTPServer.start()
        defer { Task { try? await other.shutdown() } }
        other.route("/b", TestResponse(body: testImage()))
        var configuration = ImageDownloader.Configuration()
        configuration.httpHeaders += [("Authorization", "Basic dTpw"), ("Cookie", "c=1")]
        try await withLoader(configuration) { server, downloader in
            server.route("/same", TestResponse(status: 301, headers: [("Location", "/a")]))
            server.route("/a", TestResponse(body: testImage()))
            server.route("/cross", TestResponse(status: 307, headers: [("Location", other.url("/b").absoluteString)]))
            server.route("/loop", TestResponse(status: 302, headers: [("Location", "/loop2")]))
            server.route("/loop2", TestResponse(status: 302, headers: [("Location", "/loop")]))
            _ = try await downloader.image(for: ImageDownloadRequest(url: server.url("/same")))
            #expect(server.requests(for: "/a").first?.header("Authorization") == "Basic dTpw")
            let crossed = try await downloader.image(for: ImageDownloadRequest(url: server.url("/cross")))
            #expect(crossed.response?.url == other.url("/b"))
            #expect(other.requests(for: "/b").first?.header("Authorization") == nil)
            #expect(other.requests(for: "/b").first?.header("Cookie") == nil)
            #expect(transportKind(await load(downloader, ImageDownloadRequest(url: server.url("/loop")))) == .tooManyRedirects)
            #expect(server.requestCount(for: "/loop") == 1)
        }
    }
}
