import Foundation
import Logging
import Synchronization
import Testing
import WebImageLogging

/// `--log-format json`/`gcp`: one JSON object per line, values from outside kept inside their strings.
@Suite struct JSONLogHandlerTests {
    final class Captured: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "origin said:\nFORGED level=critical" }
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func eachStatementIsOneObjectOnOneLine() throws {
        let captured = Captured()
        var logger = Logger(label: "SwiftWebImage.serve") { label in
            JSONLogHandler(label: label) { line in captured.lines.withLock { $0.append(line) } }
        }
        logger.logLevel = .debug
        logger[metadataKey: "instance"] = "a"
        logger.warning("download failed\nFORGED-LOG-LINE level=critical", error: Failure(),
                       metadata: ["url": "http://x/%0a\nFORGED", "stages": ["decode": "12"], "codes": ["1", "2"]])
        let lines = captured.all
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasSuffix("}\n") && line.dropLast().allSatisfy { $0 != "\n" })
        let object = try Self.object(line)
        #expect(object["level"] as? String == "warning")
        #expect(object["logger"] as? String == "SwiftWebImage.serve")
        #expect(object["message"] as? String == "download failed\nFORGED-LOG-LINE level=critical")
        #expect(object["url"] as? String == "http://x/%0a\nFORGED")
        #expect(object["instance"] as? String == "a")
        #expect((object["stages"] as? [String: Any])?["decode"] as? String == "12")
        #expect(object["codes"] as? [String] == ["1", "2"])
        #expect(object["error.message"] as? String == "origin said:\nFORGED level=critical")
        let time = try #require(object["time"] as? String)
        #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(time).timeIntervalSinceNow > -60)
    }

    @Test func gcpNamesTheSeverity() throws {
        let captured = Captured()
        let logger = Logger(label: "l") { JSONLogHandler(label: $0, style: .gcp) { line in captured.lines.withLock { $0.append(line) } } }
        logger.error("boom")
        let object = try Self.object(try #require(captured.all.first))
        #expect(object["severity"] as? String == "ERROR" && object["level"] == nil && object["message"] as? String == "boom")
    }
}
