import Foundation
import Logging
import Metrics
import Synchronization
import Tracing
import WebImage
import WebImageRedis

/// The proxy's view of the shared Redis tier: lookups that end in a value or a miss within the deadline
/// (a failure is counted and is a miss), and writes in the background, bounded in number.
final class SharedTier: Sendable {
    /// What a value is; each kind has its own key space.
    enum Kind: String, Sendable, CaseIterable {
        case result, source

        var keyPrefix: String { self == .result ? "r:" : "s:" }
    }

    let cache: RedisImageCache
    let configuration: SharedCacheConfiguration
    private let instruments: SharedTierInstruments
    private let statistics: ProxyStatistics
    private let pending = Atomic<Int>(0)

    /// The tier; without instrumentation of its own it uses `proxyInstrumentation`'s factory.
    init(configuration: SharedCacheConfiguration, statistics: ProxyStatistics, proxyInstrumentation: Instrumentation) {
        self.configuration = configuration
        self.statistics = statistics
        cache = RedisImageCache(endpoints: configuration.endpoints, configuration: configuration.redis)
        let instrumentation = configuration.instrumentation
            ?? Instrumentation(label: SharedCacheConfiguration.defaultLoggerLabel,
                               metricsFactory: proxyInstrumentation.metricsFactory)
        instruments = SharedTierInstruments(logger: instrumentation.logger, factory: instrumentation.metricsFactory)
    }

    /// Background writes under way.
    var pendingWrites: Int { pending.load(ordering: .relaxed) }

    /// What a lookup found.
    enum Lookup: Sendable {
        case hit(SharedCacheEntry)
        /// No value, or one that failed its checks (counted; the fresh value overwrites it).
        case miss
        /// The call failed (or was skipped): the caller goes on as for a miss.
        case failed
    }

    /// True for the rest of a request whose result lookup failed: that lookup already waited up to the
    /// deadline, so the request's source lookup is skipped and it waits at most one deadline in all.
    @TaskLocal static var skipsLookups = false

    /// The whole value under `key`, a miss, or a failure, within the deadline.
    func lookup(_ kind: Kind, forKey key: String) async -> Lookup {
        guard !Self.skipsLookups else { return .failed }
        defer { recordAvailability() }
        do {
            let read = try await cache.read(forKey: kind.keyPrefix + key)
            if read == .rejected { statistics.record(\.corruptSharedValues) }
            guard let entry = read.entry else {
                instruments.miss(kind)
                return .miss
            }
            instruments.hit(kind)
            return .hit(entry)
        } catch {
            instruments.readFailed(kind, error)
            return .failed
        }
    }

    /// Writes the entry of `byteCount` payload bytes in a task of its own and returns at once (the entry is
    /// only made when it will be written): over ``SharedCacheConfiguration/maxEntryBytes`` it is not written,
    /// past ``SharedCacheConfiguration/maxPendingWrites`` writes under way it is dropped. A failure is logged
    /// and counted, never reported to the caller.
    func storeLater(_ kind: Kind, forKey key: String, byteCount: Int, _ makeEntry: @autoclosure () -> SharedCacheEntry) {
        guard byteCount <= configuration.maxEntryBytes else { return }
        guard pending.add(1, ordering: .relaxed).newValue <= configuration.maxPendingWrites else {
            pending.subtract(1, ordering: .relaxed)
            instruments.writeFailed(kind, reason: "queue_full")
            return
        }
        let entry = makeEntry()
        // Detached, so the write outlives the request; its Redis spans stay in the request's trace.
        let context = InstrumentationContext.current
        Task.detached { [self] in
            await InstrumentationContext.withValue(context) { await write(kind, forKey: key, entry) }
        }
    }

    private func write(_ kind: Kind, forKey key: String, _ entry: SharedCacheEntry) async {
        defer {
            pending.subtract(1, ordering: .relaxed)
            recordAvailability()
        }
        do throws(RedisError) {
            try await cache.store(entry, forKey: kind.keyPrefix + key)
            instruments.wrote(kind)
        } catch {
            instruments.writeFailed(kind, reason: error.metricReason)
            // Refused by the open breaker: counted only. A server not reached is counted toward the breaker,
            // whose opening is logged with the failure: one line, not one per write.
            let metadata: Logger.Metadata = ["kind": "\(kind.rawValue)", "key": "\(key)", "error": "\(error)"]
            switch error {
            case .unavailable: return
            case .timeout, .connectionFailed: instruments.logger.debug("shared cache write failed", metadata: metadata)
            default: instruments.logger.warning("shared cache write failed", metadata: metadata)
            }
        }
    }

    /// Lets writes under way finish (each is bounded by the deadline, so this waits at most about one
    /// deadline), then closes the connections.
    func close() async {
        let limit = ContinuousClock.now + configuration.redis.client.deadline + .milliseconds(200)
        while pendingWrites > 0, ContinuousClock.now < limit {
            try? await Task.sleep(for: .milliseconds(2))
        }
        await cache.close()
    }

    /// Sets the gauge, and logs when the tier stops or starts being used.
    private func recordAvailability() {
        let available = cache.isAvailable
        guard instruments.available.record(available) else { return }
        if available {
            instruments.logger.info("shared cache available again")
        } else {
            // The servers that stopped and why (never a password: errors and names leave it out).
            let down = cache.unavailableServers
            instruments.logger.warning("shared cache unavailable after repeated failures: serving from local tiers and the origin",
                                       metadata: ["servers": "\(down.map(\.name).joined(separator: ","))",
                                                  "error": "\(down.compactMap(\.failure).first.map { "\($0)" } ?? "")"])
        }
    }
}

extension ProcessedResult {
    /// A result read from the shared tier, with the ETag and Last-Modified of the instance that made it.
    /// A value with no ETag (written by another client) gets this instance's, from its bytes.
    init(shared entry: SharedCacheEntry) {
        let data = Data(entry.bytes)
        guard let etag = entry.etag, let lastModified = entry.lastModified else {
            self.init(data: data, format: entry.format, lastModified: entry.lastModified ?? Date())
            return
        }
        self.init(data: data, metadata: Metadata(format: entry.format, etag: etag, lastModified: lastModified))
    }

    /// The value the shared tier keeps for this result.
    var sharedEntry: SharedCacheEntry {
        SharedCacheEntry(bytes: Array(data), format: format, etag: etag, lastModified: lastModified)
    }
}
