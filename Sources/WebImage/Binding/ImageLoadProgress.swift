import Synchronization

/// A target's load progress (SDWebImage's `sd_imageProgress`): unit counts in bytes, reset by each new load.
///
/// The fraction reaches exactly 1 when the load finishes, also when the size was never announced.
public final class ImageLoadProgress: Sendable {
    private let counts = Mutex((completed: Int64(0), total: Int64(0)))

    public init() {}

    /// Bytes received so far.
    public var completedUnitCount: Int64 { counts.withLock { $0.completed } }
    /// Bytes expected (0 while unknown).
    public var totalUnitCount: Int64 { counts.withLock { $0.total } }
    /// completed ÷ total, 0 while the total is unknown.
    public var fractionCompleted: Double {
        counts.withLock { $0.total > 0 ? min(1, Double($0.completed) / Double($0.total)) : 0 }
    }

    func update(received: Int, expected: Int) {
        counts.withLock { counts in
            counts.completed = Int64(max(0, received))
            counts.total = expected > 0 ? Int64(expected) : 0
        }
    }

    func reset() {
        counts.withLock { $0 = (0, 0) }
    }

    /// Marks the load over: total = completed (at least 1), so the fraction is 1.
    func complete() {
        counts.withLock { counts in
            counts.total = max(1, max(counts.total, counts.completed))
            counts.completed = counts.total
        }
    }
}
