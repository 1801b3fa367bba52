import Synchronization

/// Where a request's answer came from, as its access-log line shows it.
public enum CacheOutcome: String, Sendable {
    /// The memory tier of the result cache.
    case memory
    /// The disk tier of the result cache.
    case disk
    /// Neither tier: the request made the result.
    case miss
    /// Neither tier: the request joined a result another request was making.
    case coalesced
}

/// What the recording points a request passes note about it, read for its access-log line. Bound to the
/// request's task (and the tasks it starts) while it is answered; nil when no access log is written.
final class RequestTrace: Sendable {
    @TaskLocal static var current: RequestTrace?

    private let outcome = Mutex<CacheOutcome?>(nil)

    /// The last outcome noted wins: a request that missed and then joined a flight is `coalesced`.
    func note(_ outcome: CacheOutcome) {
        self.outcome.withLock { $0 = outcome }
    }

    var cacheOutcome: CacheOutcome? { outcome.withLock { $0 } }
}
