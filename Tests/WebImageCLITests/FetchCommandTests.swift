import Foundation
import Testing
import TestSupport
import WebImage

/// `webimage fetch` and `prefetch` run as a user would, against the in-process loopback server.
@Suite struct FetchCommandTests {
    /// A small opaque PNG (40×30) the server answers with.
    static let png: Data = {
        let pixels = PixelBuffer(width: 40, height: 30) { out in
            for i in stride(from: 0, to: out.count, by: 4) {
                out[i] = UInt8(i % 251)
                out[i + 1] = 90
                out[i + 2] = 200
                out[i + 3] = 255
            }
        }
        return (try? CodersManager.shared.encode(Image(pixels: pixels, hasAlpha: false), as: .png,
                                                  options: ImageEncodeOptions())) ?? Data()
    }()

    /// The stdout lines of a `--json` run, parsed.
    private func lines(_ result: CLIRunner.Result) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func twentyCopiesMakeOneRequestThenComeFromDisk() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png", TestResponse(body: Self.png))
        let cache = try TemporaryDirectory()
        let url = server.url("/a.png").absoluteString
        let arguments = ["fetch"] + Array(repeating: url, count: 20) + ["--cache-dir", cache.path("c"), "--json"]

        let first = try await CLIRunner.run(arguments, timeout: 120)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        // Not a terminal: no progress bars, nothing on stderr.
        #expect(first.stderr.isEmpty)
        let records = try lines(first)
        #expect(records.count == 20)
        #expect(records.allSatisfy { $0["ok"] as? Bool == true && $0["url"] as? String == url })
        #expect(records.allSatisfy { $0["width"] as? Int == 40 && $0["height"] as? Int == 30 })
        #expect(records.allSatisfy { $0["format"] as? String == "png" && $0["frameCount"] as? Int == 1 })
        #expect(records[0]["bytes"] as? Int == Self.png.count)
        #expect(records[0]["file"] is NSNull)
        #expect(server.requestCount(for: "/a.png") == 1)

        let second = try await CLIRunner.run(arguments, timeout: 120)
        #expect(second.status == 0, "stderr: \(second.stderr)")
        let again = try lines(second)
        #expect(again.count == 20)
        #expect(again.allSatisfy { $0["ok"] as? Bool == true })
        #expect(again[0]["cacheType"] as? String == "disk")
        #expect(again.allSatisfy { ["disk", "memory"].contains($0["cacheType"] as? String) })
        #expect(server.requestCount(for: "/a.png") == 1)
        try await server.shutdown()
    }

    @Test func notFoundFailsWith2001AndTheOthersComplete() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png", TestResponse(body: Self.png))
        let cache = try TemporaryDirectory()
        let result = try await CLIRunner.run(["fetch", server.url("/missing.png").absoluteString, "not a url",
                                        server.url("/a.png").absoluteString, "--cache-dir", cache.path("c"), "--json"],
                                       timeout: 120)
        #expect(result.status == 1)
        let records = try lines(result)
        #expect(records.map { $0["ok"] as? Bool } == [false, false, true])
        let notFound = try #require(records[0]["error"] as? [String: Any])
        #expect(notFound["code"] as? Int == 2001)
        #expect(notFound["message"] as? String == "HTTP status 404 is not acceptable")
        let malformed = try #require(records[1]["error"] as? [String: Any])
        #expect(malformed["code"] as? Int == 1000)
        #expect(records[2]["error"] == nil)
        try await server.shutdown()
    }

    @Test func urlsFromAFileAreLoadedInOrderAWindowAtATime() async throws {
        let server = try await TestHTTPServer.start()
        for index in 0..<150 { server.route("/\(index).png", TestResponse(body: Self.png)) }
        server.route("/first.png", TestResponse(body: Self.png))
        let dir = try TemporaryDirectory()
        let list = dir.path("urls.txt")
        // 300 lines, more than the window of loads in flight: every image twice, far apart (the second copy
        // comes from the cache). The argument before the list is an image of its own: two loads of one URL started
        // at the same instant may still download twice when the first ends between the second's cache check and
        // its download, a window SDWebImage has too.
        let listed = (0..<300).map { server.url("/\($0 % 150).png").absoluteString }
        try Data(("# images\n\n" + listed.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: list))
        let first = server.url("/first.png").absoluteString

        let result = try await CLIRunner.run(["fetch", first, "--from", list, "--cache-dir", dir.path("c"), "--json"],
                                             timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let records = try lines(result)
        #expect(records.map { $0["url"] as? String } == [first] + listed)
        #expect(records.allSatisfy { $0["ok"] as? Bool == true })
        #expect((0..<150).map { server.requestCount(for: "/\($0).png") } == Array(repeating: 1, count: 150))
        #expect(server.requestCount(for: "/first.png") == 1)
        try await server.shutdown()
    }

    @Test func fetchWithoutURLsFailsWithOneLine() async throws {
        let dir = try TemporaryDirectory()
        let empty = dir.path("empty.txt")
        try Data("# nothing here\n".utf8).write(to: URL(fileURLWithPath: empty))
        for arguments in [["fetch"], ["fetch", "--from", empty], ["fetch", "--from", dir.path("missing.txt")]] {
            let result = try await CLIRunner.run(arguments + ["--cache-dir", dir.path("c")])
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)")
        }
        let none = try await CLIRunner.run(["fetch", "--cache-dir", dir.path("c")])
        #expect(none.stderr == "webimage: fetch: no URLs: give URL arguments or --from FILE\n")
    }

    @Test func prefetchThenFetchFromCacheOnlyOffline() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png", TestResponse(body: Self.png))
        server.route("/b.png", TestResponse(body: Self.png))
        let dir = try TemporaryDirectory()
        let list = dir.path("urls.txt")
        let urls = [server.url("/a.png").absoluteString, server.url("/b.png").absoluteString]
        try Data(("# warm these\n" + urls.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: list))

        let warmed = try await CLIRunner.run(["prefetch", "--from", list, "--cache-dir", dir.path("c")], timeout: 120)
        #expect(warmed.status == 0, "stderr: \(warmed.stderr)")
        #expect(warmed.stdout == "prefetched 2, skipped 0\n")
        try await server.shutdown()

        let offline = try await CLIRunner.run(["fetch"] + urls + ["--options", "fromCacheOnly", "--cache-dir", dir.path("c"),
                                                             "--json"], timeout: 120)
        #expect(offline.status == 0, "stderr: \(offline.stderr)")
        let records = try lines(offline)
        #expect(records.map { $0["cacheType"] as? String } == ["disk", "disk"])
        let stats = try await CLIRunner.run(["cache", "stats", "--cache-dir", dir.path("c"), "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["count"] as? Int == 2)
        #expect(object["bytes"] as? Int == 2 * Self.png.count)
    }

    @Test func noCacheDownloadsEveryRunAndStoresNothing() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png", TestResponse(body: Self.png))
        let dir = try TemporaryDirectory()
        let arguments = ["fetch", server.url("/a.png").absoluteString, "--no-cache", "--cache-dir", dir.path("c"),
                         "--json"]
        for _ in 0..<2 {
            let result = try await CLIRunner.run(arguments, timeout: 120)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(try lines(result).first?["cacheType"] as? String == "none")
        }
        #expect(server.requestCount(for: "/a.png") == 2)
        let stats = try await CLIRunner.run(["cache", "stats", "--cache-dir", dir.path("c"), "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["count"] as? Int == 0)
        try await server.shutdown()
    }

    @Test func prefetchCountsSkippedURLs() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png", TestResponse(body: Self.png))
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["prefetch", server.url("/a.png").absoluteString,
                                        server.url("/gone.png").absoluteString, "--cache-dir", dir.path("c"), "--json"],
                                       timeout: 120)
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["total"] as? Int == 2)
        #expect(object["prefetched"] as? Int == 1)
        #expect(object["skipped"] as? Int == 1)
        try await server.shutdown()
    }

    @Test func fromCacheOnlyMissFails() async throws {
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["fetch", "http://127.0.0.1:9/nothing.png", "--options", "fromCacheOnly",
                                        "--cache-dir", dir.path("c"), "--json"], timeout: 60)
        #expect(result.status == 1)
        let error = try #require(try lines(result).first?["error"] as? [String: Any])
        #expect(error["code"] as? Int == 2000)
    }

    @Test func writesTransformedFilesNamedFromTheURL() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/pics/photo.png", TestResponse(body: Self.png))
        let dir = try TemporaryDirectory()
        let out = dir.path("out")
        let result = try await CLIRunner.run(["fetch", server.url("/pics/photo.png").absoluteString, "-o", out,
                                        "--transform", "resize:20x10:fill;flip:h", "--format", "jpeg",
                                        "--cache-dir", dir.path("c"), "--json"], timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let record = try #require(try lines(result).first)
        #expect(record["file"] as? String == out + "/photo.jpg")
        #expect(record["width"] as? Int == 20)
        let written = try CodersManager.shared.decode(Data(contentsOf: URL(fileURLWithPath: out + "/photo.jpg")),
                                                      options: ImageDecodeOptions())
        #expect(written.format == .jpeg)
        #expect(written.pixelSize == PixelSize(width: 20, height: 10))
        try await server.shutdown()
    }

    @Test func badArgumentsAreOneLineErrors() async throws {
        let cases: [([String], String)] = [
            (["--options", "refreshCached,bogus"], "webimage: fetch: invalid option: unknown option 'bogus'"),
            (["--transform", "resize:abc"],
             "webimage: --transform: bad step 'resize:abc': give resize:WxH[:fill|fit|cover]"),
            (["--header", "NoColon"], "webimage: --header: bad header 'NoColon': give 'Name: value'"),
        ]
        for (extra, expected) in cases {
            let result = try await CLIRunner.run(["fetch", "http://127.0.0.1:9/a.png"] + extra, timeout: 60)
            #expect(result.status == 1)
            #expect(result.stderrLines.count == 1)
            #expect(result.stderrLines.first?.hasPrefix(expected) == true, "\(result.stderrLines)")
        }
    }

    @Test func unwritableOutputIsOneLine() async throws {
        let dir = try TemporaryDirectory()
        let blocker = dir.path("file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let result = try await CLIRunner.run(["fetch", "http://127.0.0.1:9/a.png", "-o", blocker], timeout: 60)
        #expect(result.status == 1)
        #expect(result.stderrLines == ["webimage: \(blocker): cannot create directory: a file of that name exists"])
    }
}
