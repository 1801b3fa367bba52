import Dispatch
import Foundation
import Logging
import Metrics

extension ImageDownloader {
    /// A caller joined the running (or delivering) task of its URL.
    func reportJoined(_ url: URL) {
        instruments.coalesced.increment()
        instruments.logger.debug("download joined a running one", metadata: ["url": "\(url.absoluteString)"])
    }

    /// A request failed before any task (no transport for the URL, the request modifier refused).
    func reportRefused(_ url: URL, _ error: WebImageError) {
        instruments.countFailure(error)
        instruments.logger.warning("download refused",
                                   metadata: ["url": "\(url.absoluteString)", "code": "\(error.code)",
                                              "error": "\(error)"])
    }
}

extension DownloadOperation {
    private var instruments: DownloadInstruments { downloader.instruments }

    func reportStarted() {
        instruments.started.increment()
        instruments.logger.debug("download started", metadata: ["url": "\(url.absoluteString)"])
    }

    /// Times the first response head of the task (a 401 answered with credentials included).
    func recordFirstByte() {
        let elapsed: UInt64? = state.withLock { state in
            guard !state.firstByteRecorded else { return nil }
            state.firstByteRecorded = true
            return DispatchTime.now().uptimeNanoseconds - state.startedAt
        }
        if let elapsed { instruments.firstByte.recordNanoseconds(Int64(elapsed)) }
    }

    func reportCancelled() {
        instruments.logger.debug("download cancelled", metadata: ["url": "\(url.absoluteString)"])
    }

    /// The transfer ended: times it, and logs (and counts, for failures) how.
    ///
    /// 304 Not Modified and cancellation are outcomes, not failures: logged at `debug`, not counted.
    func reportFinished(_ outcome: DownloadOutcome) {
        let elapsed = DispatchTime.now().uptimeNanoseconds - state.withLock { $0.startedAt }
        instruments.duration.recordNanoseconds(Int64(elapsed))
        let logger = instruments.logger
        switch outcome {
        case .success(let body):
            logger.debug("download finished",
                         metadata: ["url": "\(url.absoluteString)",
                                    "status": "\(body.head?.status.map(String.init) ?? "-")",
                                    "bytes": "\(body.data.count)", "durationMs": "\(Self.milliseconds(elapsed))"])
        case .failure(let error):
            switch error {
            case .cacheNotModified, .cancelled:
                logger.debug("download ended without a body",
                             metadata: ["url": "\(url.absoluteString)", "code": "\(error.code)", "error": "\(error)",
                                        "durationMs": "\(Self.milliseconds(elapsed))"])
            default:
                instruments.countFailure(error)
                logger.warning("download failed",
                               metadata: ["url": "\(url.absoluteString)", "code": "\(error.code)", "error": "\(error)",
                                          "durationMs": "\(Self.milliseconds(elapsed))"])
            }
        }
    }

    /// Nanoseconds as milliseconds with one decimal (formatted only inside enabled log statements).
    private static func milliseconds(_ nanoseconds: UInt64) -> String {
        String(format: "%.1f", Double(nanoseconds) / 1_000_000)
    }

    /// The body arrived but does not decode (per distinct decode options of the callers).
    func reportUndecodable(_ error: WebImageError, bytes: Int) {
        instruments.logger.warning("downloaded bytes do not decode",
                                   metadata: ["url": "\(url.absoluteString)", "code": "\(error.code)",
                                              "error": "\(error)", "bytes": "\(bytes)"])
    }
}
