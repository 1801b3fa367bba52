/// Stops calling a failing server for a while, so a dead Redis costs one deadline now and then, not one per
/// request: after ``failureThreshold`` failures in a row it opens for ``openDuration``, then lets one trial
/// call through (half open); the trial's success closes it, its failure opens it again.
///
/// A value: its owner keeps it under a lock and asks it what to do.
public struct CircuitBreaker: Sendable {
    public enum State: Sendable, Hashable {
        case closed(failures: Int)
        case open(until: ContinuousClock.Instant)
        case halfOpen
    }

    /// Failures in a row that open the circuit. Default 3.
    public let failureThreshold: Int
    /// How long it stays open before a trial call. Default 5 s.
    public let openDuration: Duration
    public private(set) var state: State = .closed(failures: 0)

    public init(failureThreshold: Int = 3, openDuration: Duration = .seconds(5)) {
        self.failureThreshold = max(1, failureThreshold)
        self.openDuration = openDuration
    }

    /// Whether a call may go out now (in the half-open state only the first asker gets true).
    public mutating func allowsCall(at now: ContinuousClock.Instant = .now) -> Bool {
        switch state {
        case .closed: return true
        case .halfOpen: return false
        case .open(let until):
            guard now >= until else { return false }
            state = .halfOpen
            return true
        }
    }

    public mutating func recordSuccess() {
        state = .closed(failures: 0)
    }

    public mutating func recordFailure(at now: ContinuousClock.Instant = .now) {
        switch state {
        case .closed(let failures) where failures + 1 < failureThreshold:
            state = .closed(failures: failures + 1)
        case .closed, .halfOpen, .open:
            state = .open(until: now + openDuration)
        }
    }

    /// Whether calls are being refused.
    public var isOpen: Bool {
        if case .closed = state { return false }
        return true
    }
}
