import Metrics
import Synchronization

/// Bounds the requests processed at once, with a bounded queue behind them: a full queue refuses at once
/// (429) instead of letting latency grow without limit.
final class WorkLimiter: Sendable {
    private let state: Mutex<AdmissionState<CheckedContinuation<Bool, Never>>>
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

    /// Waits for a slot; throws ``ProxyError/tooManyRequests`` at once when the queue is full, and
    /// ``ProxyError/unavailable(_:)`` when the caller is cancelled while queued. Pair with ``release()``.
    func acquire() async throws(ProxyError) {
        let id = ids.add(1, ordering: .relaxed).newValue
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                switch state.withLock({ state in
                    defer { queueDepth.set(state.queued) }
                    return state.acquire(id: id, waiter: continuation)
                }) {
                case .granted: continuation.resume(returning: true)
                case .rejected: continuation.resume(returning: false)
                case .queued: break
                }
            }
        } onCancel: {
            state.withLock { state in
                defer { queueDepth.set(state.queued) }
                return state.cancel(id: id)
            }?.resume(returning: false)
        }
        guard granted else {
            if Task.isCancelled { throw .unavailable("the request was abandoned") }
            throw .tooManyRequests
        }
    }

    /// Ends a job that ``acquire()`` admitted, admitting the next waiter.
    func release() {
        state.withLock { state in
            defer { queueDepth.set(state.queued) }
            return state.release()
        }?.resume(returning: true)
    }
}
