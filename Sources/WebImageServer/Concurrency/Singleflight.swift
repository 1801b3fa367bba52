import Synchronization

/// Runs the work for a key once however many callers ask at the same time; each caller waits with its own
/// deadline and can leave without disturbing the others, and the work is cancelled when nobody waits. The work
/// is handed the latest deadline of its waiters (``WorkDeadline``), moved later by each that joins.
final class Singleflight<Value: Sendable>: Sendable {
    typealias Outcome = Result<Value, ProxyError>
    private typealias Table = FlightTable<CheckedContinuation<Outcome, Never>, Task<Void, Never>>

    private let table = Mutex(Table())
    private let ids = Atomic<Int>(0)

    /// Keys with work under way.
    var count: Int { table.withLock { $0.count } }

    /// The outcome of `work` for `key`, started now or joined; `timeout` is returned at `deadline`, and
    /// ``ProxyError/unavailable(_:)`` when the calling task is cancelled. `joined` is called for a follower.
    func run(key: String, deadline: ContinuousClock.Instant, timeout: ProxyError, joined: @Sendable () -> Void,
             work: @escaping @Sendable (WorkDeadline) async -> Outcome) async -> Outcome {
        let waiterID = ids.add(1, ordering: .relaxed).newValue
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            if !Task.isCancelled { self.leave(key: key, waiterID: waiterID, with: .failure(timeout)) }
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                switch table.withLock({ $0.join(key: key, waiterID: waiterID, waiter: continuation, deadline: deadline) }) {
                case .lead(let flightID, let shared):
                    let task = Task {
                        let outcome = await work(shared)
                        for waiter in self.table.withLock({ $0.finish(key: key, flightID: flightID) }) {
                            waiter.resume(returning: outcome)
                        }
                    }
                    if !table.withLock({ $0.attach(task, key: key, flightID: flightID) }) { task.cancel() }
                case .follow:
                    joined()
                }
                if Task.isCancelled { leave(key: key, waiterID: waiterID, with: .failure(Self.abandoned)) }
            }
        } onCancel: {
            leave(key: key, waiterID: waiterID, with: .failure(Self.abandoned))
        }
    }

    private static var abandoned: ProxyError { .unavailable("the request was abandoned") }

    private func leave(key: String, waiterID: Int, with outcome: Outcome) {
        let (waiter, abandonedWork) = table.withLock { $0.leave(key: key, waiterID: waiterID) }
        abandonedWork?.cancel()
        waiter?.resume(returning: outcome)
    }
}
