#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import Synchronization
import WebImage
import WebImageLogging

/// The text log handler of `webimage serve`'s access logger: every record as `EscapingLogHandler` around
/// swift-log's `StreamLogHandler` on ``StandardErrorOutput`` writes it, and ``AccessLog``'s request lines
/// formatted here into one buffer, byte for byte the same line, without the metadata dictionary, its escaping
/// and sorting, and the timestamp formatted once a second (the stream handler's way cost a warm hit 8 % of its
/// CPU). Each line is one write, as before: it is out before the answer is sent, and none waits for shutdown.
package struct AccessLineHandler: LogHandler {
    private var inner: any LogHandler
    private let label: String
    private let write: @Sendable (UnsafeRawBufferPointer) -> Void

    package init(label: String) {
        self.init(label: label, stream: StandardErrorOutput.Stream()) { StandardErrorOutput.write($0) }
    }

    /// Records through `stream`, request lines through `write` (tests compare the two).
    init(label: String, stream: some TextOutputStream & Sendable, write: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.label = label
        self.write = write
        inner = EscapingLogHandler(StreamLogHandler(label: label, stream: stream))
    }

    package var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    package var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    package var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    package func log(event: LogEvent) {
        inner.log(event: event)
    }

    /// Whether ``writeRequest(_:)`` writes what a record through ``log(event:)`` would: no metadata of the
    /// logger's own or from a provider joins the line.
    var writesRequestsDirectly: Bool { inner.metadata.isEmpty && inner.metadataProvider == nil }

    /// One request's line at `info`, as ``AccessLog/log(_:to:)`` writes it through this handler.
    func writeRequest(_ line: AccessLine) {
        let path = LogText.escaped(line.path)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: label.utf8.count + path.utf8.count + Self.source.utf8.count + 256) { buffer in
            var writer = LineWriter(buffer: buffer)
            writer.append(timestamp: Self.clock)
            writer.append(" info ")
            writer.append(label)
            writer.append(": bytes=")
            writer.append(decimal: Int64(line.bytes))
            writer.append(" cache=")
            writer.append(line.cache)
            writer.append(" duration_ms=")
            writer.append(AccessLog.milliseconds(line.microseconds))
            writer.append(" method=")
            writer.append(line.method)
            writer.append(" path=")
            writer.append(path)
            writer.append(" status=")
            writer.append(decimal: Int64(line.status))
            writer.append(" [")
            writer.append(Self.source)
            writer.append("] request\n")
            write(UnsafeRawBufferPointer(start: buffer.baseAddress, count: writer.count))
        }
    }

    /// The module swift-log names as a record's source: this one, the access log's.
    private static let source = String(#fileID.prefix { $0 != "/" })
    private static let clock = LocalSecondClock()
}

/// What one access line says (escaped by ``AccessLineHandler``).
struct AccessLine {
    var method: String
    var path: String
    var status: Int
    var bytes: Int
    /// The duration rounded to the microsecond (at least 0), written as milliseconds with three decimals.
    var microseconds: Int64
    var cache: String
}

/// Bytes appended into a buffer long enough for the line.
private struct LineWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(fromContentsOf: bytes)
            count += bytes.count
        }
    }

    /// `value` in decimal (a small string: no allocation).
    mutating func append(decimal value: Int64) {
        append(String(value))
    }

    mutating func append(timestamp clock: LocalSecondClock) {
        count += clock.write(into: UnsafeMutableBufferPointer(rebasing: buffer[count...]))
    }
}

/// swift-log's stream handler's timestamp, `strftime`'s `%Y-%m-%dT%H:%M:%S%z` of the local time, formatted once
/// per second.
private final class LocalSecondClock: Sendable {
    private struct Formatted {
        var second: time_t = -1
        var bytes: [UInt8] = []
    }

    private let last = Mutex(Formatted())

    /// Writes the current second's timestamp at the start of `buffer` (at least 64 bytes); its length.
    func write(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let now = time(nil)
        return last.withLock { last in
            if last.second != now {
                last.second = now
                last.bytes = Self.format(now)
            }
            _ = buffer.initialize(fromContentsOf: last.bytes)
            return last.bytes.count
        }
    }

    private static func format(_ second: time_t) -> [UInt8] {
        var second = second
        var parts = tm()
        guard localtime_r(&second, &parts) != nil else { return Array("<unknown>".utf8) }
        var text = [Int8](repeating: 0, count: 64)
        let count = strftime(&text, text.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return text[..<count].map { UInt8(bitPattern: $0) }
    }
}
