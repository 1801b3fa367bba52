/// The worker pool's admission rules as a value: at most `workers` running, at most `queueLimit` waiting in
/// arrival order, anyone past that refused at once. Generic over what a waiter is, so tests drive it alone.
struct AdmissionState<Waiter> {
    enum Acquire {
        /// Run now.
        case granted
        /// Wait for a release.
        case queued
        /// The queue is full: answer 429 now.
        case rejected
    }

    let workers: Int
    let queueLimit: Int
    private(set) var running = 0
    private var waiting: [(id: Int, waiter: Waiter)] = []

    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
    }

    var queued: Int { waiting.count }
    /// True while a new request would be refused.
    var isFull: Bool { running >= workers && waiting.count >= queueLimit }

    mutating func acquire(id: Int, waiter: Waiter) -> Acquire {
        if running < workers {
            running += 1
            return .granted
        }
        guard waiting.count < queueLimit else { return .rejected }
        waiting.append((id, waiter))
        return .queued
    }

    /// A queued waiter gave up; returns it when it was still queued.
    mutating func cancel(id: Int) -> Waiter? {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return waiting.remove(at: index).waiter
    }

    /// A running job ended: the next waiter runs in its place (returned), or the slot frees.
    mutating func release() -> Waiter? {
        guard !waiting.isEmpty else {
            running -= 1
            return nil
        }
        return waiting.removeFirst().waiter
    }
}
