import Synchronization

/// A thread-safe counter that says which decrement reached zero (for "after every store" and "resume once").
final class Countdown: Sendable {
    private let remaining: Mutex<Int>

    init(_ count: Int) {
        remaining = Mutex(count)
    }

    func add(_ count: Int) {
        remaining.withLock { $0 += count }
    }

    /// Decrements; true for exactly the call that reaches zero.
    func tick() -> Bool {
        remaining.withLock { remaining in
            remaining -= 1
            return remaining == 0
        }
    }
}
