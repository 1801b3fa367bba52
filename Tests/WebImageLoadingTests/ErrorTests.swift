import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct ErrorTests {
    @Test func notFoundIsStatusError2001WithTheStatusAndHeaders() async throws {
        try await withLoader { server, downloader in
            server.route("/missing", TestResponse(status: 404, headers: [("X-Reason", "gone")], body: Data("nope".utf8)))
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/missing")))
            guard case .failure(.invalidDownloadStatusCode(let status, let headers)) = result else {
                Issue.record("expected 2001, got \(result)")
                return
            }
            #expect(status == 404)
            #expect(headers.contains { $0.name == "X-Reason" && $0.value == "gone" })
        }
    }

    @Test func emptyBodyFromElevenStaggeredCallersGivesElevenBadImageDataErrors() async throws {
        try await withLoader { server, downloader in
            server.route("/empty", TestResponse(body: Data(), delay: .milliseconds(50)))
            let codes = Recorder<Int?>()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<11 {
                    group.addTask { codes.append(code(await load(downloader, ImageDownloadRequest(url: server.url("/empty"))))) }
                    try? await Task.sleep(for: .milliseconds(15))
                }
            }
            #expect(codes.all.count == 11)
            #expect(codes.all.allSatisfy { $0 == 1001 })
        }
    }

    @Test func undecodableBytesAreBadImageData() async throws {
        try await withLoader { server, downloader in
            server.route("/junk", TestResponse(body: Data("this is not an image".utf8)))
            #expect(code(await load(downloader, ImageDownloadRequest(url: server.url("/junk")))) == 1001)
        }
    }

    @Test func unacceptableContentTypeIs2004() async throws {
        let configuration = ImageDownloader.Configuration(acceptableContentTypes: ["image/png"])
        try await withLoader(configuration) { server, downloader in
            server.route("/html", TestResponse(headers: [("Content-Type", "text/html; charset=utf-8")], body: testImage()))
            server.route("/png", TestResponse(headers: [("Content-Type", "image/png")], body: testImage()))
            let result = await load(downloader, ImageDownloadRequest(url: server.url("/html")))
            guard case .failure(.invalidDownloadContentType(let type)) = result else {
                Issue.record("expected 2004, got \(result)")
                return
            }
            #expect(type == "text/html")
            #expect(code(await load(downloader, ImageDownloadRequest(url: server.url("/png")))) == nil)
        }
    }

    @Test func responsesOverTheByteLimitStopWithATypedError() async throws {
        try await withLoader(ImageDownloader.Configuration(maxResponseBytes: 10_000)) { server, downloader in
            server.route("/declared", TestResponse(body: testImage(payload: 20_000)))
            server.route("/streamed", TestResponse(body: testImage(payload: 20_000), chunked: true))
            for path in ["/declared", "/streamed"] {
                let result = await load(downloader, ImageDownloadRequest(url: server.url(path)))
                guard case .failure(.responseTooLarge(let limit)) = result else {
                    Issue.record("expected responseTooLarge for \(path), got \(result)")
                    continue
                }
                #expect(limit == 10_000)
            }
        }
    }

    @Test func hangingServerTimesOutWithATimeoutError() async throws {
        try await withLoader(ImageDownloader.Configuration(downloadTimeout: .seconds(1))) { server, downloader in
            server.route("/hang", TestResponse(behavior: .hang))
            let (result, elapsed) = await timedLoad(downloader, ImageDownloadRequest(url: server.url("/hang")))
            #expect(transportKind(result) == .timeout)
            // The configured 1 s fired, not the 15 s default; the margin covers a loaded two-core machine.
            #expect(elapsed >= 0.9 && elapsed < 5, "\(elapsed) s")
        }
    }

    @Test func resetAndTruncatedConnectionsAreConnectionResets() async throws {
        try await withLoader { server, downloader in
            server.route("/reset", TestResponse(body: testImage(), behavior: .reset))
            server.route("/cut", TestResponse(body: testImage(payload: 50_000), behavior: .truncate(afterBytes: 1_000)))
            #expect(transportKind(await load(downloader, ImageDownloadRequest(url: server.url("/reset")))) == .connectionReset)
            let cut = await load(downloader, ImageDownloadRequest(url: server.url("/cut")))
            #expect(transportKind(cut) == .connectionReset, "\(cut)")
        }
    }

    @Test func refusedConnectionIsConnectionRefused() async throws {
        let server = try await TestHTTPServer.start()
        let url = server.url("/a")
        try await server.shutdown()
        let downloader = ImageDownloader(coders: .testing())
        let result = await load(downloader, ImageDownloadRequest(url: url))
        try await downloader.shutdown()
        #expect(transportKind(result) == .connectionRefused)
    }

    @Test func nilRequestModifierFails2000WithoutContactingTheServer() async throws {
        try await withLoader { server, downloader in
            server.route("/a", TestResponse(body: testImage()))
            let request = ImageDownloadRequest(url: server.url("/a"), requestModifier: { _ in nil })
            #expect(code(await load(downloader, request)) == 2000)
            #expect(server.totalRequestCount == 0)
        }
    }

    @Test func nilResponseModifierFails2003AndNilDecryptorFails1001() async throws {
        try await withLoader { server, downloader in
            server.route("/a", TestResponse(body: testImage()))
            server.route("/b", TestResponse(body: testImage()))
            #expect(code(await load(downloader, ImageDownloadRequest(url: server.url("/a"), responseModifier: { _ in nil }))) == 2003)
            #expect(code(await load(downloader, ImageDownloadRequest(url: server.url("/b"), decryptor: { _, _ in nil }))) == 1001)
        }
    }

    @Test func unsupportedSchemeIsInvalidURL() async throws {
        try await withLoader { _, downloader in
            #expect(code(await load(downloader, ImageDownloadRequest(url: URL(string: "ftp://example.com/a.png")!))) == 1000)
            #expect(!downloader.canRequestImage(for: URL(string: "ftp://example.com/a.png")!))
        }
    }
}
