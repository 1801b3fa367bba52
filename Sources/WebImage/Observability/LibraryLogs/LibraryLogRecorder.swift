import Logging
import Metrics
import Synchronization
import WebImageCodecs

/// Turns what the C libraries write into log records: each at `debug`, its library as the `library` metadata,
/// cut to ``LibraryLogLimits/maxLineBytes``, and no more than the limits' rate, whatever the logger's level (the
/// excess is counted in ``WebImageMetrics/libraryLogLinesDropped``, not logged). The log handler escapes the
/// text as any other.
final class LibraryLogRecorder: Sendable {
    private let logger: Logger
    private let maxLineBytes: Int
    private let bucket: Mutex<TokenBucket>
    private let factory: any MetricsFactory

    init(logger: Logger, limits: LibraryLogLimits, metricsFactory: any MetricsFactory) {
        self.logger = logger
        maxLineBytes = max(1, limits.maxLineBytes)
        bucket = Mutex(TokenBucket(capacity: limits.burst, rate: limits.linesPerSecond))
        factory = metricsFactory
    }

    func record(_ message: LibraryLogMessage) {
        let dimensions = [(WebImageMetrics.Dimension.library, message.library)]
        Counter(label: WebImageMetrics.libraryLogLines, dimensions: dimensions, factory: factory).increment()
        guard bucket.withLock({ $0.take() }) else {
            Counter(label: WebImageMetrics.libraryLogLinesDropped, dimensions: dimensions, factory: factory).increment()
            return
        }
        logger.debug("\(Self.cut(message.text, to: maxLineBytes))",
                     metadata: [WebImageMetrics.Dimension.library: .string(message.library)])
    }

    /// `text` within `limit` bytes of UTF-8, ending with `…` when it was longer (cut between characters).
    static func cut(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let scalars = text.unicodeScalars
        var end = scalars.startIndex, bytes = 0
        while end < scalars.endIndex, bytes + UTF8.width(scalars[end]) <= limit {
            bytes += UTF8.width(scalars[end])
            scalars.formIndex(after: &end)
        }
        return String(scalars[..<end]) + "…"
    }
}
