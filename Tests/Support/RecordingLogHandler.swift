import Logging
import Synchronization

/// One log statement as a test sees it: metadata values as their text.
public struct LogEntry: Sendable {
    public var label: String
    public var level: Logger.Level
    public var message: String
    public var metadata: [String: String]
}

/// Collects what the recording loggers of one test log, in order.
public final class LogStore: Sendable {
    private let entries = Mutex<[LogEntry]>([])

    public init() {}

    /// A logger at `level` that records into this store.
    public func logger(_ label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { RecordingLogHandler(label: $0, store: self) }
        logger.logLevel = level
        return logger
    }

    public func record(_ entry: LogEntry) {
        entries.withLock { $0.append(entry) }
    }

    public var all: [LogEntry] { entries.withLock { $0 } }

    /// The entries with `message`, in order.
    public func entries(_ message: String) -> [LogEntry] {
        all.filter { $0.message == message }
    }

    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}

/// A swift-log handler that records every statement into a ``LogStore``.
public struct RecordingLogHandler: LogHandler {
    public let label: String
    public let store: LogStore
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]

    public init(label: String, store: LogStore) {
        self.label = label
        self.store = store
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.record(LogEntry(label: label, level: event.level, message: event.message.description,
                              metadata: merged.mapValues(\.description)))
    }
}
