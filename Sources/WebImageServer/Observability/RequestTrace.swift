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

/// What the recording points a request passes note about it, read for its access-log line and the operator
/// page's slowest requests. Bound to the request's task (and the tasks it starts, and the worker thread that
/// processes it) while an image or info request is answered, or any request is access-logged.
final class RequestTrace: Sendable {
    @TaskLocal static var current: RequestTrace?

    private let outcome = Mutex<CacheOutcome?>(nil)
    private let stages = Mutex<[RequestStage: UInt64]>([:])

    /// The last outcome noted wins: a request that missed and then joined a flight is `coalesced`.
    func note(_ outcome: CacheOutcome) {
        self.outcome.withLock { $0 = outcome }
    }

    var cacheOutcome: CacheOutcome? { outcome.withLock { $0 } }

    /// Adds `nanoseconds` to `stage` (a stage can run more than once: a fallback image is decoded too).
    func add(_ stage: RequestStage, nanoseconds: UInt64) {
        stages.withLock { $0[stage, default: 0] += nanoseconds }
    }

    /// The time noted for each stage the request went through, in nanoseconds.
    var stageTimes: [RequestStage: UInt64] { stages.withLock { $0 } }
}
