/// Decides which (received, expected) updates reach the progress handlers.
///
/// The start (0, −1), the head (0, N) and the end (N, N) always pass; chunks in between pass when at least
/// `interval` has gone by since the last report. Counts never go down.
struct ProgressThrottle {
    let interval: Duration
    private var lastReport: ContinuousClock.Instant?
    private(set) var reported: (received: Int, expected: Int)?

    init(interval: Duration) {
        self.interval = interval
    }

    /// Always reports: for the start and the head.
    mutating func milestone(received: Int, expected: Int, now: ContinuousClock.Instant) -> (Int, Int) {
        lastReport = now
        reported = (received, expected)
        return (received, expected)
    }

    /// Reports a chunk's new count unless it comes too soon after the last report.
    mutating func chunk(received: Int, expected: Int, now: ContinuousClock.Instant) -> (Int, Int)? {
        if interval > .zero, received != expected, let lastReport, now - lastReport < interval { return nil }
        return milestone(received: received, expected: expected, now: now)
    }

    /// The final (N, N), unless it was the last thing reported.
    mutating func end(total: Int, now: ContinuousClock.Instant) -> (Int, Int)? {
        if let reported, reported.received == total, reported.expected == total { return nil }
        return milestone(received: total, expected: total, now: now)
    }
}
