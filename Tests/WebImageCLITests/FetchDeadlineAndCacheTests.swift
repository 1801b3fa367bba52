import Foundation
import Testing
import TestSupport
import WebImage

/// `fetch --timeout` is a total deadline; an unusable `--cache-dir` fails up front; validators are no entries.
@Suite struct FetchDeadlineAndCacheTests {
    private func records(_ result: CLIRunner.Result) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// One byte every 200 ms never trips a per-read timeout; `--timeout 1` still ends the download after 1 s.
    @Test func timeoutIsTheTotalDeadline() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/drip.png", TestResponse(body: FetchCommandTests.png,
                                               behavior: .drip(chunkSize: 1, interval: .milliseconds(200))))
        let dir = try TemporaryDirectory()
        let result = try await CLIRunner.run(["fetch", server.url("/drip.png").absoluteString, "--timeout", "1",
                                              "--cache-dir", dir.path("c"), "--json"], timeout: 120)
        try await server.shutdown()
        #expect(result.status == 1)
        let record = try #require(try records(result).first)
        let error = try #require(record["error"] as? [String: Any])
        #expect(error["code"] as? Int == 2100)
        #expect(error["message"] as? String == "timeout: not complete within the total download timeout of 1 s")
        // The body alone takes over 100 s. Timed by the child itself: this test's own clock also counts the
        // minutes its task may wait for one of the two cooperative threads while other suites decode.
        let millis = try #require(record["millis"] as? Double)
        #expect(millis >= 1000 && millis < 30_000, "took \(millis) ms")
    }

    @Test func anUnusableCacheDirectoryFailsUpFront() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png", TestResponse(body: FetchCommandTests.png))
        let url = server.url("/a.png").absoluteString
        let expected = "webimage: /proc/webimage-test/default: cannot use as the cache directory: "
            + "mkdir(/proc/webimage-test): No such file or directory"
        for command in ["fetch", "prefetch"] {
            let result = try await CLIRunner.run([command, url, "--cache-dir", "/proc/webimage-test"], timeout: 60)
            #expect(result.status == 1, "\(command)")
            #expect(result.stderrLines == [expected], "\(command)")
        }
        let uncached = try await CLIRunner.run(["fetch", url, "--cache-dir", "/proc/webimage-test", "--no-cache"],
                                               timeout: 60)
        #expect(uncached.status == 0, "stderr: \(uncached.stderr)")
        #expect(server.requestCount(for: "/a.png") == 1)
        try await server.shutdown()
    }

    /// Two images with validators are two entries for `cache stats` and `ls`; a new process revalidates with
    /// them and the 304 keeps the cached copy.
    @Test func twoImagesAreTwoEntriesAndRevalidateAcrossProcesses() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png", TestResponse(body: FetchCommandTests.png, etag: "\"a1\""))
        server.route("/b.png", TestResponse(body: FetchCommandTests.png, lastModified: "Wed, 21 Oct 2015 07:28:00 GMT"))
        let dir = try TemporaryDirectory()
        let cache = ["--cache-dir", dir.path("c")]
        let urls = ["/a.png", "/b.png"].map { server.url($0).absoluteString }
        let first = try await CLIRunner.run(["fetch"] + urls + cache + ["--json"], timeout: 120)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        // A validator file as older versions wrote it: never an entry.
        try Data("E:\"old\"".utf8).write(to: URL(fileURLWithPath: dir.path("c/default/0123456789abcdef0123456789abcdef.png")))

        let stats = try await CLIRunner.run(["cache", "stats", "--json"] + cache, timeout: 60)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])
        #expect(object["count"] as? Int == 2)
        #expect(object["bytes"] as? Int == 2 * FetchCommandTests.png.count)
        let listed = try await CLIRunner.run(["cache", "ls"] + cache, timeout: 60)
        #expect(listed.stdout.split(separator: "\n").count == 2)

        let again = try await CLIRunner.run(["fetch"] + urls + cache + ["--options", "refreshCached", "--json"],
                                            timeout: 120)
        #expect(again.status == 0, "stderr: \(again.stderr)")
        #expect(try records(again).map { $0["cacheType"] as? String } == ["disk", "disk"])
        #expect(server.requests(for: "/a.png").map { $0.header("If-None-Match") } == [nil, "\"a1\""])
        #expect(server.requests(for: "/b.png").map { $0.header("If-Modified-Since") }
                == [nil, "Wed, 21 Oct 2015 07:28:00 GMT"])

        let trimmed = try await CLIRunner.run(["cache", "trim"] + cache, timeout: 60)
        #expect(trimmed.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("c/default")).count == 2)
        try await server.shutdown()
    }
}
