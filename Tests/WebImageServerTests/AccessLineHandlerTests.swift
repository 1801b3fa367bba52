import Foundation
import Logging
import Synchronization
import Testing
@testable import WebImageServer

/// `webimage serve`'s text access handler writes each request line itself, byte for byte the line swift-log's
/// stream handler (through `EscapingLogHandler`) writes for the same record.
@Suite struct AccessLineHandlerTests {
    /// What the stream and the direct writer were handed.
    private final class Written: Sendable {
        let text = Mutex<[String]>([])

        func append(_ piece: String) { text.withLock { $0.append(piece) } }

        func take() -> [String] { text.withLock { text in defer { text = [] }; return text } }
    }

    private struct Stream: TextOutputStream, Sendable {
        let written: Written
        mutating func write(_ string: String) { written.append(string) }
    }

    private static func handler(_ stream: Written, _ direct: Written) -> AccessLineHandler {
        AccessLineHandler(label: ImageProxy.accessLoggerLabel, stream: Stream(written: stream)) { bytes in
            direct.append(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The record's line and the direct line, written within one second (the timestamp is the second's).
    private static func bothLines(_ line: AccessLine) throws -> (record: [String], direct: [String]) {
        let stream = Written(), direct = Written()
        let handler = Self.handler(stream, direct)
        var logger = Logger(label: ImageProxy.accessLoggerLabel) { _ in handler }
        logger.logLevel = .info
        for _ in 0..<3 {
            let second = time(nil)
            AccessLog.log(line, to: logger)
            handler.writeRequest(line)
            let record = stream.take(), written = direct.take()
            if time(nil) == second { return (record, written) }
        }
        throw CancellationError()
    }

    @Test(arguments: [
        AccessLine(method: "GET", path: "/***/rs:fit:256:256/q:75/plain/http%3A%2F%2F127.0.0.1%3A8080%2Fa.jpg@webp",
                   status: 200, bytes: 1738, microseconds: 123, cache: "memory"),
        AccessLine(method: "HEAD", path: "/***/w:10/plain/http://a.example/line\nbreak\té\u{2028}\u{1B}.jpg",
                   status: 304, bytes: 0, microseconds: 1_234_567, cache: "none"),
        AccessLine(method: "GET", path: "/health", status: 503, bytes: 10, microseconds: 0, cache: "miss"),
        AccessLine(method: "GET", path: "/info/***/" + String(repeating: "x", count: 3000), status: 429, bytes: 31,
                   microseconds: 1000, cache: "coalesced"),
        AccessLine(method: "GET", path: "", status: 200, bytes: 12_345_678, microseconds: 98_765_432_109, cache: "disk"),
    ])
    func theDirectLineIsTheRecordsLine(_ line: AccessLine) throws {
        let (record, direct) = try Self.bothLines(line)
        #expect(record.count == 1 && direct.count == 1)
        #expect(direct == record)
        #expect(direct.first?.hasSuffix(" [WebImageServer] request\n") == true)
    }

    @Test func aRequestLineHasEveryFieldInKeyOrder() throws {
        let line = AccessLine(method: "GET", path: "/***/w:20/plain/a", status: 200, bytes: 5, microseconds: 42_007,
                              cache: "memory")
        let direct = try #require(try Self.bothLines(line).direct.first)
        let fields = try #require(direct.split(separator: " ", maxSplits: 1).last)
        #expect(fields == "info SwiftWebImage.serve.access: bytes=5 cache=memory duration_ms=42.007 method=GET "
                + "path=/***/w:20/plain/a status=200 [WebImageServer] request\n")
    }

    /// A logger with metadata of its own (or a provider) writes its lines as records, so the metadata is in them.
    @Test func metadataOfTheLoggersOwnTakesTheRecordPath() {
        var handler = Self.handler(Written(), Written())
        #expect(handler.writesRequestsDirectly)
        handler[metadataKey: "instance"] = "a"
        #expect(!handler.writesRequestsDirectly)
        var provided = Self.handler(Written(), Written())
        provided.metadataProvider = Logger.MetadataProvider { ["instance": "b"] }
        #expect(!provided.writesRequestsDirectly)
    }
}
