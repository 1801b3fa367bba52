import Synchronization

/// Counters of what the service did, for tests, `/ready` and (later) metrics.
public final class ProxyStatistics: Sendable {
    /// One reading of every counter.
    public struct Snapshot: Sendable, Hashable {
        /// Source downloads started (after the source cache missed); coalesced callers of one download count once
        /// per result they wait for.
        public var sourceDownloads = 0
        /// Sources read from the disk cache.
        public var sourceCacheHits = 0
        /// Results encoded.
        public var encodes = 0
        /// Results answered from memory.
        public var memoryHits = 0
        /// Results answered from disk.
        public var diskHits = 0
        /// Requests that joined a result already being made.
        public var coalesced = 0
        /// Requests refused because the queue was full.
        public var rejected = 0
    }

    private let counters = Mutex(Snapshot())

    public init() {}

    /// The counters now.
    public var snapshot: Snapshot { counters.withLock { $0 } }

    func record(_ counter: WritableKeyPath<Snapshot, Int>, by amount: Int = 1) {
        counters.withLock { $0[keyPath: counter] += amount }
    }
}
