import Logging
import Synchronization
import Testing
import WebImageLogging

/// The text swift-log's stream handler writes behind ``EscapingLogHandler``: one line per statement whatever
/// the message, the metadata or the error carry.
@Suite struct EscapingLogHandlerTests {
    final class Captured: TextOutputStream, Sendable {
        let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    struct Stream: TextOutputStream, Sendable {
        let captured: Captured
        mutating func write(_ string: String) { captured.write(string) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "origin said:\nFORGED error" }
    }

    @Test func controlCharactersNeverStartALine() {
        let captured = Captured()
        var logger = Logger(label: "test") {
            EscapingLogHandler(StreamLogHandler(label: $0, stream: Stream(captured: captured), metadataProvider: nil))
        }
        logger.logLevel = .trace
        logger[metadataKey: "request"] = "a\r\nFORGED handler"
        logger.warning("download failed\nFORGED message", metadata: [
            "url": "http://a/b\nFORGED url", "nested": ["list": ["x\u{2028}FORGED", "\u{1B}[31mred"]],
            "key\nFORGED": "k",
        ])
        logger.error("failed", error: Failure())
        let lines = captured.text.withLock { $0 }.split(separator: "\n")
        #expect(lines.count == 2, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("FORGED") })
        let text = lines.joined(separator: "\n")
        for escaped in ["failed\\nFORGED message", "b\\nFORGED url", "a\\r\\nFORGED handler", "u{2028}FORGED",
                        "\\u{1B}[31mred", "key\\nFORGED", "said:\\nFORGED error"] {
            #expect(text.contains(escaped), "\(escaped) in \(text)")
        }
    }

    @Test func printableASCIIIsKeptAndDeleteEscaped() {
        let line = "GET /sig/rs:fit:300:200/plain/http://a.example/b%20c.jpg@webp 200 \"quoted\" \\ ~"
        #expect(LogText.escaped(line) == line)
        #expect(LogText.escaped("a\u{7F}b") == "a\\u{7F}b")
        #expect(LogText.escaped("caf\u{E9}") == "caf\u{E9}")
    }

    @Test func escapingTwiceChangesNothing() {
        let once = LogText.escaped("a\tb\\nc\u{85}d")
        #expect(once == "a\\tb\\nc\\u{85}d")
        #expect(LogText.escaped(once) == once)
    }

    /// The handler's own metadata is escaped when a record is written, not when it is set, and reads back escaped,
    /// under an escaped key, as before.
    @Test func ownMetadataIsEscapedWhenWritten() {
        let captured = Captured()
        var logger = Logger(label: "test") {
            EscapingLogHandler(StreamLogHandler(label: $0, stream: Stream(captured: captured), metadataProvider: nil))
        }
        logger[metadataKey: "id\n"] = .stringConvertible(42)
        logger[metadataKey: "request"] = "a\nb"
        #expect(logger[metadataKey: "request"] == .string("a\\nb"))
        #expect(logger.handler.metadata == ["id\\n": .string("42"), "request": .string("a\\nb")])
        logger.info("one")
        logger[metadataKey: "request"] = nil
        logger.info("two")
        let lines = captured.text.withLock { $0 }.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasSuffix(": id\\n=42 request=a\\nb [WebImageObservabilityTests] one") == true, "\(lines)")
        #expect(lines.last?.hasSuffix(": id\\n=42 [WebImageObservabilityTests] two") == true, "\(lines)")
    }
}
