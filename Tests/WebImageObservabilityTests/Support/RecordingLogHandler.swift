import Logging
import Synchronization

/// One log statement as a test sees it: metadata values as their text.
struct LogEntry: Sendable {
    var label: String
    var level: Logger.Level
    var message: String
    var metadata: [String: String]
}

/// Collects what the recording loggers of one test log, in order.
final class LogStore: Sendable {
    private let entries = Mutex<[LogEntry]>([])

    /// A logger at `level` that records into this store.
    func logger(_ label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { RecordingLogHandler(label: $0, store: self) }
        logger.logLevel = level
        return logger
    }

    func record(_ entry: LogEntry) {
        entries.withLock { $0.append(entry) }
    }

    var all: [LogEntry] { entries.withLock { $0 } }

    /// The entries with `message`, in order.
    func entries(_ message: String) -> [LogEntry] {
        all.filter { $0.message == message }
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}

/// A swift-log handler that records every statement into a ``LogStore``.
struct RecordingLogHandler: LogHandler {
    let label: String
    let store: LogStore
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.record(LogEntry(label: label, level: event.level, message: event.message.description,
                              metadata: merged.mapValues(\.description)))
    }
}
