import Metrics
import Synchronization

/// A remote tier's availability: a gauge (1 available, 0 not), starting at 1, and whether a reading changed it,
/// so the tier logs once per change rather than once per call.
final class AvailabilityGauge: Sendable {
    private let gauge: Gauge
    private let last = Atomic<Bool>(true)

    init(_ gauge: Gauge) {
        self.gauge = gauge
        gauge.record(1)
    }

    /// Sets the gauge; true when `available` differs from the reading before.
    func record(_ available: Bool) -> Bool {
        gauge.record(available ? 1 : 0)
        return last.exchange(available, ordering: .relaxed) != available
    }
}
