import Synchronization

/// Asks synchronous image work (decoding, resampling, filters, encoding) to stop early: the service cancels
/// a job past its processing deadline so that its worker thread is free again within a band of rows.
///
/// The token reaches the work through a scope rather than through ``ImageDecodeOptions`` and
/// ``ImageEncodeOptions``: those are values that are compared, hashed and recorded on every decoded image,
/// and the resampler and filters take no options at all. ``run(_:)`` binds the token to the current thread
/// (a task-local value, kept per thread outside tasks) and each stage reads ``current`` once, then polls
/// ``shouldStop()`` (two relaxed atomic operations, and a clock read with a deadline) between rows, bands,
/// tiles or frames; the C libraries poll it through their own hooks (libjpeg's progress monitor, libwebp's
/// progress hook).
///
/// A stage that can throw stops with ``WebImageError/cancelled`` (2002). A loop that cannot (the resampler,
/// a blur) stops early and leaves its output unfinished: ``run(_:)`` and ``checking(_:)`` then throw
/// ``WebImageError/cancelled`` instead of returning it, so an unfinished result never leaves a cancelled scope.
///
/// ```swift
/// let cancellation = WorkCancellation()
/// timer.onExpiry { cancellation.cancel() }
/// let image = try cancellation.run { try CodersManager.shared.decode(data, options: options) }
/// ```
public final class WorkCancellation: Sendable {
    /// The token of the scope the calling thread is in; nil outside any (nothing stops early).
    @TaskLocal public static var current: WorkCancellation?

    private let cancelled = Atomic<Bool>(false)
    private let checks = Atomic<Int>(0)
    private let checkLimit: Int
    private let deadline: (@Sendable () -> ContinuousClock.Instant)?

    /// A token that stops work when ``cancel()`` is called, or by itself at its `checkLimit`-th check: a bound
    /// on work that needs no clock (tests and fuzzing use it to stop a decode at a chosen point). Default nil:
    /// no limit. With `deadline`, it also stops by itself at the first check made once the instant `deadline`
    /// gives (read at each check, so it may move later) has passed: the work stops on time even when whoever
    /// would call ``cancel()`` at the deadline runs late (a timer task on a busy cooperative pool).
    public init(checkLimit: Int? = nil, deadline: (@Sendable () -> ContinuousClock.Instant)? = nil) {
        self.checkLimit = checkLimit ?? .max
        self.deadline = deadline
    }

    /// Asks the work under this token to stop. Safe from any thread, any number of times.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    /// Whether the work was asked to stop (without counting a check).
    public var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// The checks made so far: how far the work got, in rows, bands, tiles or frames.
    public var checkCount: Int { checks.load(ordering: .relaxed) }

    /// Counts a check and says whether the work should stop now.
    @inline(__always)
    public func shouldStop() -> Bool {
        if checks.wrappingAdd(1, ordering: .relaxed).newValue >= checkLimit { cancel() }
        if let deadline, !isCancelled, ContinuousClock.now >= deadline() { cancel() }
        return isCancelled
    }

    /// Counts a check and throws ``WebImageError/cancelled`` when the work should stop.
    @inline(__always)
    public func check() throws(WebImageError) {
        if shouldStop() { throw .cancelled }
    }

    /// Runs `body` with this token as ``current`` on this thread; throws ``WebImageError/cancelled`` instead
    /// of returning when the token was cancelled before `body` ended (whatever `body` made may be unfinished).
    public func run<Value>(_ body: () throws -> Value) throws -> Value {
        let value = try Self.$current.withValue(self) { try body() }
        if isCancelled { throw WebImageError.cancelled }
        return value
    }

    /// Polls the current scope's token, if any: throws ``WebImageError/cancelled`` when its work should stop.
    public static func checkCurrent() throws(WebImageError) {
        try current?.check()
    }

    /// Runs `body` unless the current scope's work is to stop, and throws ``WebImageError/cancelled`` rather
    /// than return what `body` made when it was cancelled meanwhile. Every built-in coder's decode and encode
    /// go through it, so a result a non-throwing loop left unfinished never reaches the caller.
    public static func checking<Value>(_ body: () throws -> Value) throws -> Value {
        guard let token = current else { return try body() }
        try token.check()
        let value = try body()
        if token.isCancelled { throw WebImageError.cancelled }
        return value
    }
}
