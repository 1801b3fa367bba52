/// A token bucket: up to `capacity` takes at once, refilled at `rate` tokens a second.
struct TokenBucket: Sendable {
    private let capacity: Double
    private let rate: Double
    private var tokens: Double
    private var refilled: ContinuousClock.Instant

    /// A full bucket.
    init(capacity: Int, rate: Double, now: ContinuousClock.Instant = .now) {
        self.capacity = Double(max(0, capacity))
        self.rate = max(0, rate)
        tokens = self.capacity
        refilled = now
    }

    /// Takes one token if there is one at `now`.
    mutating func take(now: ContinuousClock.Instant = .now) -> Bool {
        let elapsed = refilled.duration(to: now)
        if elapsed > .zero {
            let (seconds, attoseconds) = elapsed.components
            tokens = min(capacity, tokens + (Double(seconds) + Double(attoseconds) * 1e-18) * rate)
            refilled = now
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
