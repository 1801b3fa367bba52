import Foundation
import ServiceLifecycle
import Synchronization

/// The charts' history: one ``Sample`` of the proxy's counters and gauges per interval, the last
/// ``capacity`` kept, each numbered so a page asks only for those it has not seen.
final class OperatorHistory: Sendable {
    /// Counters are totals since start (the page draws their rates); gauges are the value at the time.
    struct Sample: Sendable, Hashable, Encodable {
        var sequence: Int
        /// Seconds since 1970.
        var time: Double
        var requests: Int
        var clientErrors: Int
        var serverErrors: Int
        var memoryHits: Int
        var diskHits: Int
        var misses: Int
        var sourceBytes: Int
        var inFlight: Int
        var queued: Int
    }

    let capacity: Int
    private let samples: Mutex<[Sample]>

    init(capacity: Int) {
        self.capacity = max(2, capacity)
        samples = Mutex([])
        samples.withLock { $0.reserveCapacity(self.capacity) }
    }

    /// Takes a sample of `proxy` now.
    func sample(_ proxy: ImageProxy) {
        let statistics = proxy.statistics.snapshot
        let statuses = proxy.recentRequests.statuses
        let load = proxy.limiter.load
        func total(_ range: ClosedRange<Int>) -> Int { statuses.filter { range.contains($0.key) }.map(\.value).reduce(0, +) }
        samples.withLock { samples in
            let sample = Sample(sequence: (samples.last?.sequence ?? 0) + 1, time: Date().timeIntervalSince1970,
                                requests: statuses.values.reduce(0, +), clientErrors: total(400...499),
                                serverErrors: total(500...599), memoryHits: statistics.memoryHits,
                                diskHits: statistics.diskHits, misses: statistics.misses,
                                sourceBytes: statistics.sourceBytes, inFlight: proxy.recentRequests.inFlight,
                                queued: load.queued)
            if samples.count == capacity { samples.removeFirst() }
            samples.append(sample)
        }
    }

    /// The samples numbered after `sequence`, oldest first.
    func samples(after sequence: Int) -> [Sample] {
        samples.withLock { $0.filter { $0.sequence > sequence } }
    }
}

/// Samples a proxy into its history every interval until the server shuts down.
struct OperatorSampler: Service {
    let proxy: ImageProxy
    let history: OperatorHistory
    let interval: Duration

    func run() async {
        await cancelWhenGracefulShutdown { [proxy, history, interval] in
            while !Task.isCancelled {
                history.sample(proxy)
                try? await Task.sleep(for: interval)
            }
        }
    }
}
