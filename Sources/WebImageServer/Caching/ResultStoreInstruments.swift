import Logging
import Metrics

/// The result store's metrics (``ResultStoreMetrics``) and logger, made once with the store, never per event.
final class ResultStoreInstruments: Sendable {
    let logger: Logger
    let available: AvailabilityGauge
    private let hits: Counter
    private let misses: Counter
    private let writes: Counter
    private let errors: [String: Counter]
    private let writeFailures: [String: Counter]

    static let readReasons = ["timeout", "connection", "status", "unavailable"]
    static let writeReasons = readReasons + ["queue_full"]

    /// The instruments of the store of kind `tier` (`s3`).
    init(tier: String, logger: Logger, factory: any MetricsFactory) {
        self.logger = logger
        let tierDimension = (ResultStoreMetrics.Dimension.tier, tier)
        func counter(_ label: String) -> Counter { Counter(label: label, dimensions: [tierDimension], factory: factory) }
        func perReason(_ label: String, _ reasons: [String]) -> [String: Counter] {
            Dictionary(uniqueKeysWithValues: reasons.map {
                ($0, Counter(label: label, dimensions: [tierDimension, (ResultStoreMetrics.Dimension.reason, $0)],
                             factory: factory))
            })
        }
        available = AvailabilityGauge(Gauge(label: ResultStoreMetrics.available, dimensions: [tierDimension], factory: factory))
        hits = counter(ResultStoreMetrics.hits)
        misses = counter(ResultStoreMetrics.misses)
        writes = counter(ResultStoreMetrics.writes)
        errors = perReason(ResultStoreMetrics.errors, Self.readReasons)
        writeFailures = perReason(ResultStoreMetrics.writeFailures, Self.writeReasons)
    }

    func hit() { hits.increment() }
    func miss() { misses.increment() }
    func wrote() { writes.increment() }
    func readFailed(_ error: ResultStoreError) { errors[error.metricReason]?.increment() }
    func writeFailed(reason: String) { writeFailures[reason]?.increment() }
}
