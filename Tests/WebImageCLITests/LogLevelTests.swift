import Foundation
import Testing
import TestSupport
import WebImage

/// `--log-level`: the library's swift-log output on stderr, off (below `error`) by default.
@Suite struct LogLevelTests {
    @Test("--log-level debug shows each download's start and end on stderr; stdout is unchanged")
    func debugLogsDownloads() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.png", TestResponse(body: FetchCommandTests.png))
        let cache = try TemporaryDirectory()
        let url = server.url("/a.png").absoluteString
        let result = try await CLIRunner.run(["fetch", url, "--cache-dir", cache.path("c"), "--json",
                                              "--log-level", "debug"], timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1)
        let started = result.stderrLines.filter { $0.contains("download started") }
        #expect(started.count == 1)
        #expect(started.first?.contains("debug SwiftWebImage.ImageDownloader") == true)
        #expect(started.first?.contains(url) == true)
        #expect(result.stderrLines.contains { $0.contains("download finished") && $0.contains("status=200") })
        try await server.shutdown()
    }

    @Test("a 404 is logged from --log-level warning, and not by default (the command reports it itself)")
    func warningsOnlyWhenAskedFor() async throws {
        let server = try await TestHTTPServer.start()
        let cache = try TemporaryDirectory()
        let url = server.url("/missing.png").absoluteString
        let quiet = try await CLIRunner.run(["fetch", url, "--cache-dir", cache.path("c"), "--json"], timeout: 120)
        #expect(quiet.status == 1)
        #expect(quiet.stderr.isEmpty)

        let loud = try await CLIRunner.run(["fetch", url, "--cache-dir", cache.path("d"), "--json",
                                            "--log-level", "warning"], timeout: 120)
        #expect(loud.status == 1)
        let failed = loud.stderrLines.filter { $0.contains("download failed") }
        #expect(failed.count == 1)
        #expect(failed.first?.contains("warning SwiftWebImage.ImageDownloader") == true)
        #expect(failed.first?.contains("code=2001") == true)
        #expect(!loud.stderr.contains("debug "))
        try await server.shutdown()
    }

    @Test("an unknown level is a usage error naming the choices")
    func unknownLevelIsRejected() async throws {
        let result = try await CLIRunner.run(["fetch", "http://127.0.0.1:1/a.png", "--log-level", "verbose"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("verbose"))
        #expect(result.stderr.contains("trace"))
        #expect(result.stderr.contains("critical"))
    }
}
