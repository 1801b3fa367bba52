import Foundation
import Testing

/// URLs with ports no connection can use end the command with status 1 and one error naming the port, never
/// a crash (AsyncHTTPClient traps on such ports when they reach it).
@Suite struct URLCommandTests {
    static let urls = ["http://127.0.0.1:65536/x.jpg", "http://[::1]:99999/x.jpg", "http://127.0.0.1:4294967297/x.jpg"]
    static let ports = ["65536", "99999", "4294967297"]

    @Test(arguments: urls)
    func fetchAnswersOneJSONError(url: String) async throws {
        let result = try await CLIRunner.run(["fetch", "--json", "--no-cache", url], timeout: 60)
        #expect(result.exitedNormally && result.status == 1, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let record = try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
        #expect(record["ok"] as? Bool == false)
        #expect(record["url"] as? String == url)
        let error = try #require(record["error"] as? [String: Any])
        #expect(error["code"] as? Int == 1000)
        #expect((error["message"] as? String)?.contains("is outside 1…65535") == true)
    }

    @Test(arguments: zip(urls, ports))
    func fetchAndPrefetchAnswerOneLine(url: String, port: String) async throws {
        let fetched = try await CLIRunner.run(["fetch", "--no-cache", url], timeout: 60)
        #expect(fetched.exitedNormally && fetched.status == 1, "stderr: \(fetched.stderr)")
        let failures = fetched.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
        #expect(failures.count == 1 && failures.first?.contains("is outside 1…65535") == true, "\(fetched.stdout)")

        let dir = try TemporaryDirectory()
        let prefetched = try await CLIRunner.run(["prefetch", url, "--cache-dir", dir.path("c")], timeout: 60)
        #expect(prefetched.exitedNormally && prefetched.status == 1, "stderr: \(prefetched.stderr)")
        #expect(prefetched.stderrLines == ["webimage: \(url): invalid URL '\(url) (its port \(port) is outside 1…65535)': give an absolute http(s) or file URL"])
    }

    @Test func anAbsurdTimeoutIsRefusedNotTrapped() async throws {
        let result = try await CLIRunner.run(["fetch", "--timeout", "1e300", "http://127.0.0.1:1/x.jpg"], timeout: 60)
        #expect(result.exitedNormally && result.status == 1)
        #expect(result.stderrLines == ["webimage: --timeout: bad value '1e300': give a positive number of seconds, at most 1e9"])
    }
}
