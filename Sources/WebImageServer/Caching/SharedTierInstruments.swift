import Logging
import Metrics
import WebImageRedis

/// The shared tier's metrics (``SharedCacheMetrics``) and logger, made once with the tier, never per event.
final class SharedTierInstruments: Sendable {
    let logger: Logger
    let available: AvailabilityGauge
    private let hits: [SharedTier.Kind: Counter]
    private let misses: [SharedTier.Kind: Counter]
    private let writes: [SharedTier.Kind: Counter]
    private let errors: [String: Counter]
    private let writeFailures: [String: Counter]

    static let readReasons = ["timeout", "connection", "protocol", "server", "reply", "unavailable"]
    static let writeReasons = readReasons + ["queue_full"]

    init(logger: Logger, factory: any MetricsFactory) {
        self.logger = logger
        let kind = SharedCacheMetrics.Dimension.kind, reason = SharedCacheMetrics.Dimension.reason
        func perKind(_ label: String) -> [SharedTier.Kind: Counter] {
            Dictionary(uniqueKeysWithValues: SharedTier.Kind.allCases.map {
                ($0, Counter(label: label, dimensions: [(kind, $0.rawValue)], factory: factory))
            })
        }
        func perReason(_ label: String, _ reasons: [String]) -> [String: Counter] {
            Dictionary(uniqueKeysWithValues: SharedTier.Kind.allCases.flatMap { value in
                reasons.map { ("\(value.rawValue)/\($0)",
                               Counter(label: label, dimensions: [(kind, value.rawValue), (reason, $0)], factory: factory)) }
            })
        }
        available = AvailabilityGauge(Gauge(label: SharedCacheMetrics.available, factory: factory))
        hits = perKind(SharedCacheMetrics.hits)
        misses = perKind(SharedCacheMetrics.misses)
        writes = perKind(SharedCacheMetrics.writes)
        errors = perReason(SharedCacheMetrics.errors, Self.readReasons)
        writeFailures = perReason(SharedCacheMetrics.writeFailures, Self.writeReasons)
    }

    func hit(_ kind: SharedTier.Kind) { hits[kind]?.increment() }
    func miss(_ kind: SharedTier.Kind) { misses[kind]?.increment() }
    func wrote(_ kind: SharedTier.Kind) { writes[kind]?.increment() }

    func readFailed(_ kind: SharedTier.Kind, _ error: RedisError) {
        errors["\(kind.rawValue)/\(error.metricReason)"]?.increment()
    }

    func writeFailed(_ kind: SharedTier.Kind, reason: String) {
        writeFailures["\(kind.rawValue)/\(reason)"]?.increment()
    }
}

extension RedisError {
    /// The `reason` dimension of a failed call.
    var metricReason: String {
        switch self {
        case .timeout: "timeout"
        case .connectionFailed: "connection"
        case .protocolError: "protocol"
        case .serverError: "server"
        case .unexpectedReply: "reply"
        case .unavailable: "unavailable"
        }
    }
}
