import Metrics
import Synchronization

/// Counters of what the service did, for tests and `/ready`; each recording also feeds the matching metric
/// (``ImageProxyMetrics``) and the current request's access-log cache outcome, so all three agree.
public final class ProxyStatistics: Sendable {
    /// One reading of every counter.
    public struct Snapshot: Sendable, Hashable {
        /// Source downloads started (after the source cache missed); coalesced callers of one download count once
        /// per result they wait for.
        public var sourceDownloads = 0
        /// Bytes of the source downloads (`sourceDownloads`) received from origins.
        public var sourceBytes = 0
        /// Sources read from the disk cache without asking the origin.
        public var sourceCacheHits = 0
        /// Stale cached sources the origin confirmed unchanged (304 to a conditional request).
        public var sourcesNotModified = 0
        /// Stale cached sources served because the origin failed or did not answer their revalidation.
        public var staleSourcesServed = 0
        /// Large sources not written to the disk cache because another large source's store was still running.
        public var sourceStoresSkipped = 0
        /// Results encoded.
        public var encodes = 0
        /// Results answered from memory.
        public var memoryHits = 0
        /// Results answered from disk.
        public var diskHits = 0
        /// Requests neither result-cache tier answered (those that then joined a result being made included).
        public var misses = 0
        /// Requests that joined a result already being made, or took one stored just after they missed.
        public var coalesced = 0
        /// Requests refused because the queue was full.
        public var rejected = 0
        /// Results and sources found on disk that failed their checksum (or were written by an earlier
        /// version without one): each was a miss and was removed.
        public var corruptDiskValues = 0
        /// Shared-tier values that failed their checks (changed, torn, foreign or of an earlier version):
        /// each was a miss, overwritten when the fresh value was made.
        public var corruptSharedValues = 0
        /// Result-store objects that failed their checks (changed, torn, foreign, too large, or without their
        /// expiry): each was a miss, overwritten when the fresh result was made.
        public var corruptStoreValues = 0
    }

    private let counters = Mutex(Snapshot())
    let instruments: ProxyInstruments

    /// Statistics whose metrics are made with `metricsFactory` (default: swift-metrics' bootstrapped factory).
    public init(metricsFactory: any MetricsFactory = MetricsSystem.factory) {
        instruments = ProxyInstruments(factory: metricsFactory)
    }

    /// The counters now.
    public var snapshot: Snapshot { counters.withLock { $0 } }

    /// Counts one event: the snapshot, its metric, and (for a cache outcome) the current request's access line.
    func record(_ counter: WritableKeyPath<Snapshot, Int>, by amount: Int = 1) {
        counters.withLock { $0[keyPath: counter] += amount }
        instruments.count(counter, by: amount)
    }
}
