import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
@testable import webimage

/// `webimage serve --log-format json` (imgproxy's `IMGPROXY_LOG_FORMAT=json`): every line on stderr, access
/// lines and warnings alike, is one JSON object, even for a source URL that carries a line break.
@Suite struct ServeLogFormatTests {
    @Test func everyLineIsOneJSONObject() async throws {
        let dir = try TemporaryDirectory()
        let err = dir.url.appendingPathComponent("stderr")
        let process = try SpawnedProcess(try CLIRunner.executable(),
                                         ["serve", "--bind", "127.0.0.1:0", "--allow-unsigned",
                                          "--cache-dir", dir.path("cache"), "--log-level", "info"],
                                         environment: ProcessInfo.processInfo.environment.merging(["IMGPROXY_LOG_FORMAT": "json"]) { $1 },
                                         stdout: .pipe, stderr: .file(err))
        defer { process.terminate() }
        let port = try await ServeAnnouncement.read(try #require(process.standardOutput)).port
        // A refused source (loopback) whose URL holds an encoded line break and a forged entry.
        let forged = "http%3A%2F%2F127.0.0.1%3A1%2Fa%0AFORGED-LOG-LINE%20level%3Dcritical.png"
        for path in ["/health", "/_/w:10/plain/\(forged)"] {
            let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
            _ = try await URLSession.shared.data(from: url)
        }
        process.terminate()
        await process.exited()
        #expect(process.termination == .exited(0))
        let lines = String(decoding: try Data(contentsOf: err), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count >= 2)
        var accessPaths: [String] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(object["time"] is String && object["level"] is String && object["message"] is String, "\(line)")
            if object["logger"] as? String == "SwiftWebImage.serve.access", let path = object["path"] as? String {
                accessPaths.append(path)
            }
        }
        #expect(!lines.contains { $0.hasPrefix("FORGED") })
        #expect(accessPaths.count == 2 && accessPaths.first == "/health")
    }
}
