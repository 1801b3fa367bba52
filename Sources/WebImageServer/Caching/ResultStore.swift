import Crypto
import Foundation
import Logging
import Metrics
import Synchronization
import WebImageRedis

/// The proxy's result tier in S3-compatible object storage (``ResultStoreConfiguration``): lookups that end in a
/// verified, unexpired result or a miss within the deadline (a failure is counted and is a miss), writes in the
/// background, bounded in number, and a circuit breaker that stops both for a while after failures in a row.
final class ResultStore: Sendable {
    let configuration: ResultStoreConfiguration
    private let client: S3ObjectClient
    private let breaker: Mutex<CircuitBreaker>
    private let instruments: ResultStoreInstruments
    private let statistics: ProxyStatistics
    private let pending = Atomic<Int>(0)

    /// The metadata header an object's expiry travels in (S3 hands `x-amz-meta-*` back as written).
    static let expiresHeader = "x-amz-meta-expires"
    /// A write may take this many times the read deadline: it carries the whole result and delays no answer.
    static let writeDeadlineFactor = 10

    /// The tier over `store`; its metrics are made with `metricsFactory`, its log is `SwiftWebImage.ResultStore`.
    init(configuration: ResultStoreConfiguration, store: ImageProxyConfiguration.S3, statistics: ProxyStatistics,
         metricsFactory: any MetricsFactory) {
        self.configuration = configuration
        self.statistics = statistics
        client = S3ObjectClient(store: store, bucket: configuration.bucket, connectTimeout: configuration.deadline)
        breaker = Mutex(CircuitBreaker(failureThreshold: configuration.breakerFailureThreshold,
                                       openDuration: configuration.breakerOpenDuration))
        instruments = ResultStoreInstruments(tier: "s3", logger: Logger(label: "SwiftWebImage.ResultStore"),
                                             factory: metricsFactory)
    }

    /// Background writes under way.
    var pendingWrites: Int { pending.load(ordering: .relaxed) }

    /// The object that holds the result under `key`: the prefix, then the hex SHA-256 of the key (which holds
    /// the source URL, so it is never written out).
    func objectName(forKey key: String) -> String {
        let hash = SHA256.hash(data: Data(key.utf8)).map { String(format: "%02x", $0) }.joined()
        return configuration.prefix.isEmpty ? hash : configuration.prefix + "/" + hash
    }

    /// The result under `key`, a miss (none, expired, or refused by its checks: counted corrupt, overwritten
    /// when the fresh result is stored), or a failure, within the deadline.
    func lookup(forKey key: String) async -> SharedTier.Lookup {
        guard allowsCall() else {
            instruments.readFailed(.unavailable)
            return .failed
        }
        let read: S3ObjectClient.Read
        do throws(ResultStoreError) {
            read = try await client.get(objectName(forKey: key), maxBytes: configuration.maxEntryBytes + Self.framingBytes,
                                        within: configuration.deadline)
            recordOutcome(succeeded: true)
        } catch {
            recordOutcome(succeeded: false)
            instruments.readFailed(error)
            return .failed
        }
        switch read {
        case .absent:
            break
        case .tooLarge:
            statistics.record(\.corruptStoreValues)
        case .found(let body, let headers):
            // Every object written carries its expiry: one without is foreign. An expired one is not read further.
            guard let expires = headers.first(name: Self.expiresHeader).flatMap(Int.init) else {
                statistics.record(\.corruptStoreValues)
                break
            }
            guard Double(expires) > Date().timeIntervalSince1970 else { break }
            guard let entry = SharedCacheEntry(decoding: Array(body.readableBytesView)) else {
                statistics.record(\.corruptStoreValues)
                break
            }
            instruments.hit()
            return .hit(entry)
        }
        instruments.miss()
        return .miss
    }

    /// Writes the entry of `byteCount` payload bytes in a task of its own and returns at once (the entry is only
    /// made when it will be written): over ``ResultStoreConfiguration/maxEntryBytes`` it is not written, past
    /// ``ResultStoreConfiguration/maxPendingWrites`` writes under way it is dropped, and while the breaker is
    /// open it is refused. A failure is logged and counted, never reported to the caller.
    func storeLater(forKey key: String, byteCount: Int, _ makeEntry: @autoclosure () -> SharedCacheEntry) {
        guard byteCount <= configuration.maxEntryBytes else { return }
        guard pending.add(1, ordering: .relaxed).newValue <= configuration.maxPendingWrites else {
            pending.subtract(1, ordering: .relaxed)
            instruments.writeFailed(reason: "queue_full")
            return
        }
        let name = objectName(forKey: key), body = makeEntry().encoded
        Task.detached { [self] in await write(body, named: name) }
    }

    private func write(_ body: [UInt8], named name: String) async {
        defer { pending.subtract(1, ordering: .relaxed) }
        guard allowsCall() else {
            instruments.writeFailed(reason: ResultStoreError.unavailable.metricReason)
            return
        }
        let expires = Int(Date().timeIntervalSince1970) + Int(configuration.timeToLive.components.seconds)
        do throws(ResultStoreError) {
            try await client.put(name, body, headers: [(Self.expiresHeader, String(expires))],
                                 within: configuration.deadline * Self.writeDeadlineFactor)
            recordOutcome(succeeded: true)
            instruments.wrote()
        } catch {
            recordOutcome(succeeded: false)
            instruments.writeFailed(reason: error.metricReason)
            instruments.logger.warning("result store write failed",
                                       metadata: ["object": "\(name)", "error": "\(error)"])
        }
    }

    /// Lets writes under way finish (each is bounded by its deadline), then closes the connections.
    func close() async {
        let limit = ContinuousClock.now + configuration.deadline * Self.writeDeadlineFactor + .milliseconds(200)
        while pendingWrites > 0, ContinuousClock.now < limit {
            try? await Task.sleep(for: .milliseconds(2))
        }
        await client.shutdown()
    }

    /// What `SharedCacheEntry`'s framing adds to a payload, at most (the ETag's length field allows 64 KiB).
    private static let framingBytes = 20 + 65_535 + ValueChecksum.size

    private func allowsCall() -> Bool {
        breaker.withLock { $0.allowsCall() }
    }

    /// Tells the breaker how a call it allowed ended. A call that failed because its request was cancelled
    /// (the client left) says nothing about the store, unless it was the trial call of a half-open breaker,
    /// which must end in one state or the other.
    private func recordOutcome(succeeded: Bool) {
        let cancelled = Task.isCancelled
        breaker.withLock { breaker in
            if succeeded {
                breaker.recordSuccess()
            } else if !cancelled || breaker.state == .halfOpen {
                breaker.recordFailure()
            }
        }
        recordAvailability()
    }

    /// Sets the gauge, and logs when the store stops or starts being used.
    private func recordAvailability() {
        let available = !breaker.withLock { $0.isOpen }
        guard instruments.available.record(available) else { return }
        if available {
            instruments.logger.info("result store available again")
        } else {
            instruments.logger.warning("result store unavailable after repeated failures: serving from the other tiers and the origin")
        }
    }
}
