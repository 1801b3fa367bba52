import Metrics
import Synchronization

/// Bounds the requests processed at once, with a bounded queue behind them: a full queue refuses at once
/// (429) instead of letting latency grow without limit.
final class WorkLimiter: Sendable {
    private let state: Mutex<AdmissionState<CheckedContinuation<Admission, Never>>>
    private let ids = Atomic<Int>(0)
    /// Set to the queue's length under the lock at every change, so readings never go back in time.
    private let queueDepth: Meter

    init(workers: Int, queueLimit: Int, queueDepth: Meter) {
        state = Mutex(AdmissionState(workers: workers, queueLimit: queueLimit))
        self.queueDepth = queueDepth
    }

    /// True while a new request would be refused.
    var isFull: Bool { state.withLock { $0.isFull } }
    /// Jobs running and waiting.
    var load: (running: Int, queued: Int) { state.withLock { ($0.running, $0.queued) } }

    /// How a wait for a slot ended.
    private enum Admission {
        case granted, rejected, expired, abandoned
    }

    /// Waits for a slot until `deadline`; throws ``ProxyError/tooManyRequests`` at once when the queue is full,
    /// `timeout` when the deadline passes while queued (or just as the slot comes: nothing is started past it),
    /// and ``ProxyError/unavailable(_:)`` when the caller is cancelled while queued. Pair with ``release()``.
    func acquire(until deadline: WorkDeadline, timeout: ProxyError) async throws(ProxyError) {
        let id = ids.add(1, ordering: .relaxed).newValue
        // Only a queued waiter needs a timer; it stops as soon as the wait ends.
        var expiry: Task<Void, Never>?
        let admission = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Admission, Never>) in
                switch state.withLock({ state in
                    defer { queueDepth.set(state.queued) }
                    return state.acquire(id: id, waiter: continuation)
                }) {
                case .granted: continuation.resume(returning: .granted)
                case .rejected: continuation.resume(returning: .rejected)
                case .queued:
                    expiry = Task {
                        await deadline.wait()
                        if !Task.isCancelled { leaveQueue(id, .expired) }
                    }
                }
            }
        } onCancel: {
            leaveQueue(id, .abandoned)
        }
        expiry?.cancel()
        switch admission {
        case .granted:
            guard !deadline.hasPassed else {
                release()
                throw timeout
            }
        case .rejected: throw .tooManyRequests
        case .expired: throw timeout
        case .abandoned: throw .unavailable("the request was abandoned")
        }
    }

    /// Takes waiter `id` out of the queue, when it is still there, and tells it why.
    private func leaveQueue(_ id: Int, _ reason: Admission) {
        state.withLock { state in
            defer { queueDepth.set(state.queued) }
            return state.cancel(id: id)
        }?.resume(returning: reason)
    }

    /// Ends a job that ``acquire(until:timeout:)`` admitted, admitting the next waiter.
    func release() {
        state.withLock { state in
            defer { queueDepth.set(state.queued) }
            return state.release()
        }?.resume(returning: .granted)
    }
}
