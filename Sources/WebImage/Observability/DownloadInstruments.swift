import Logging
import Metrics
import Synchronization

/// An ``ImageDownloader``'s logger and metrics, made once with the downloader; failure counters are made on
/// the first failure with each code.
final class DownloadInstruments: Sendable {
    let logger: Logger
    let started: Counter
    let coalesced: Counter
    let bytesReceived: Counter
    let firstByte: CoreMetrics.Timer
    let duration: CoreMetrics.Timer
    /// Decoding downloaded bytes.
    let coding: CodingTimers
    private let factory: any MetricsFactory
    private let failures = Mutex<[Int: Counter]>([:])

    init(logger: Logger, factory: any MetricsFactory) {
        self.logger = logger
        self.factory = factory
        started = Counter(label: WebImageMetrics.downloadsStarted, factory: factory)
        coalesced = Counter(label: WebImageMetrics.downloadsCoalesced, factory: factory)
        bytesReceived = Counter(label: WebImageMetrics.downloadBytes, factory: factory)
        firstByte = CoreMetrics.Timer(label: WebImageMetrics.downloadFirstByte, factory: factory)
        duration = CoreMetrics.Timer(label: WebImageMetrics.downloadDuration, factory: factory)
        coding = CodingTimers(factory: factory)
    }

    /// Counts a failed download under its SDWebImage code.
    func countFailure(_ error: WebImageError) {
        let code = error.code
        let counter = failures.withLock { failures in
            if let counter = failures[code] { return counter }
            let counter = Counter(label: WebImageMetrics.downloadsFailed,
                                  dimensions: [(WebImageMetrics.Dimension.code, String(code))], factory: factory)
            failures[code] = counter
            return counter
        }
        counter.increment()
    }
}

/// An ``ImagePrefetcher``'s logger and metrics, made once with the prefetcher.
final class PrefetchInstruments: Sendable {
    let logger: Logger
    let finished: Counter
    let skipped: Counter

    init(logger: Logger, factory: any MetricsFactory) {
        self.logger = logger
        finished = Counter(label: WebImageMetrics.prefetchFinished, factory: factory)
        skipped = Counter(label: WebImageMetrics.prefetchSkipped, factory: factory)
    }
}
