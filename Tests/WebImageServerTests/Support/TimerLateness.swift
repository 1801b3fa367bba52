import Synchronization

/// `body`'s result, and how late this process's own 50 ms timers woke at worst while it ran: other tests of a
/// whole-suite run can hold the cooperative threads for seconds, and nothing in the process (a deadline's answer
/// included) comes sooner than the runtime lets it.
func measuringTimerLateness<T: Sendable>(_ body: () async throws -> T) async throws -> (T, Duration) {
    let lateness = Mutex(Duration.zero)
    let probe = Task {
        while !Task.isCancelled {
            let due = ContinuousClock.now + .milliseconds(50)
            try? await Task.sleep(until: due, clock: .continuous)
            lateness.withLock { $0 = max($0, ContinuousClock.now - due) }
        }
    }
    defer { probe.cancel() }
    let result = try await body()
    return (result, lateness.withLock { $0 })
}

/// Whether a cheap request after slow work was served: 200 with its image, or, only in a run that starved this
/// process (timers a quarter of `timeout` late or more), its own deadline's 503.
func servedUnlessStarved(_ answer: ProxyHarness.Answer, late: Duration, timeout: Duration) -> Bool {
    answer.status == 200 || (answer.status == 503 && late * 4 >= timeout)
}
