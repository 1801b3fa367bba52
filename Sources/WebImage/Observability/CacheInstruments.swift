import Logging
import Metrics

/// An ``ImageCache``'s logger and metrics, made once with the cache (never per event).
final class CacheInstruments: Sendable {
    let logger: Logger
    let memoryHits: Counter
    let memoryMisses: Counter
    let diskHits: Counter
    let diskMisses: Counter
    let memoryStores: Counter
    let diskStores: Counter
    /// Decoding disk hits, encoding images stored without bytes.
    let coding: CodingTimers

    init(logger: Logger, factory: any MetricsFactory) {
        self.logger = logger
        let tier = WebImageMetrics.Dimension.tier
        let memory = [(tier, WebImageMetrics.Tier.memory)], disk = [(tier, WebImageMetrics.Tier.disk)]
        memoryHits = Counter(label: WebImageMetrics.cacheHits, dimensions: memory, factory: factory)
        memoryMisses = Counter(label: WebImageMetrics.cacheMisses, dimensions: memory, factory: factory)
        diskHits = Counter(label: WebImageMetrics.cacheHits, dimensions: disk, factory: factory)
        diskMisses = Counter(label: WebImageMetrics.cacheMisses, dimensions: disk, factory: factory)
        memoryStores = Counter(label: WebImageMetrics.cacheStores, dimensions: memory, factory: factory)
        diskStores = Counter(label: WebImageMetrics.cacheStores, dimensions: disk, factory: factory)
        coding = CodingTimers(factory: factory)
    }

    /// Logs a memory hit at `trace`, building nothing unless that level is on: memory hits are the hot path.
    @inline(__always)
    func traceMemoryHit(key: String) {
        guard logger.logLevel <= .trace else { return }
        logger.trace("memory cache hit", metadata: ["key": "\(key)"])
    }
}

/// A ``DiskCache``'s logger and metrics, made once with the cache.
final class DiskCacheInstruments: Sendable {
    let logger: Logger
    let limitEvictions: Counter
    let expiredEvictions: Counter
    let writeFailures: Counter
    let bytes: Gauge

    init(logger: Logger, factory: any MetricsFactory) {
        self.logger = logger
        let disk = (WebImageMetrics.Dimension.tier, WebImageMetrics.Tier.disk)
        let reason = WebImageMetrics.Dimension.reason
        limitEvictions = Counter(label: WebImageMetrics.cacheEvictions,
                                 dimensions: [disk, (reason, WebImageMetrics.Reason.limit)], factory: factory)
        expiredEvictions = Counter(label: WebImageMetrics.cacheEvictions,
                                   dimensions: [disk, (reason, WebImageMetrics.Reason.expired)], factory: factory)
        writeFailures = Counter(label: WebImageMetrics.diskWriteFailures, factory: factory)
        bytes = Gauge(label: WebImageMetrics.diskCacheBytes, factory: factory)
    }
}
