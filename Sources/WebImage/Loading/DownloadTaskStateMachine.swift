import WebImageCore

/// The lifecycle of one network download shared by its callers: queued → running → finishing → done.
///
/// A value type kept under the operation's lock; every transition returns what the owner must do (fail a
/// caller, cancel the transfer, give back the slot, unregister the URL), and the owner does it after unlocking.
/// Callers leave only through ``detach(_:)`` (cancellation), ``claim(_:)`` (delivery) or ``cancelAll()``, so
/// each caller's completion runs exactly once. A caller attaching while the task is finishing is handed the
/// finished outcome at once and is never lost; once done, attaching is refused and the owner starts a new task.
struct DownloadTaskStateMachine {
    enum Phase {
        case queued
        case running
        /// The transfer ended with this outcome; callers are being delivered.
        case finishing(DownloadOutcome)
        case done
    }

    /// What ``attach(_:)`` did.
    enum AttachResult {
        /// The caller will be delivered with everyone else.
        case attached
        /// The task is finishing: deliver this outcome to the caller now.
        case deliverNow(DownloadOutcome)
        /// The task is done: start a new one.
        case closed
    }

    /// What the owner must do after ``detach(_:)``.
    struct DetachResult {
        /// The caller to fail with `cancelled`, or nil if it had already left.
        var caller: DownloadCaller?
        /// The last caller left a running task: cancel the transfer and give back its slot.
        var cancelTransfer = false
        /// The task is done: remove it from the URL registry.
        var becameDone = false
    }

    private(set) var phase = Phase.queued
    private(set) var callers: [DownloadCaller] = []

    var isDone: Bool {
        if case .done = phase { return true }
        return false
    }

    var isRunning: Bool {
        if case .running = phase { return true }
        return false
    }

    mutating func attach(_ caller: DownloadCaller) -> AttachResult {
        switch phase {
        case .queued, .running:
            callers.append(caller)
            return .attached
        case .finishing(let outcome):
            callers.append(caller)
            return .deliverNow(outcome)
        case .done:
            return .closed
        }
    }

    mutating func detach(_ id: Int) -> DetachResult {
        guard let index = callers.firstIndex(where: { $0.id == id }) else { return DetachResult() }
        let caller = callers.remove(at: index)
        guard callers.isEmpty else { return DetachResult(caller: caller) }
        let wasRunning = isRunning
        phase = .done
        return DetachResult(caller: caller, cancelTransfer: wasRunning, becameDone: true)
    }

    /// Moves a queued task to running; false if every caller left while it waited.
    mutating func start() -> Bool {
        guard case .queued = phase, !callers.isEmpty else { return false }
        phase = .running
        return true
    }

    /// The transfer ended: returns the callers to deliver (empty and done when none is left), or nil if the
    /// task was no longer running (cancelled meanwhile).
    mutating func finish(_ outcome: DownloadOutcome) -> [DownloadCaller]? {
        guard case .running = phase else { return nil }
        if callers.isEmpty {
            phase = .done
            return []
        }
        phase = .finishing(outcome)
        return callers
    }

    /// Takes a caller out for delivery: nil if it already left (cancelled); `becameDone` when it was the last
    /// one of a finishing task.
    mutating func claim(_ id: Int) -> (caller: DownloadCaller?, becameDone: Bool) {
        guard let index = callers.firstIndex(where: { $0.id == id }) else { return (nil, false) }
        let caller = callers.remove(at: index)
        if case .finishing = phase, callers.isEmpty {
            phase = .done
            return (caller, true)
        }
        return (caller, false)
    }

    /// Ends the task for everyone: returns the callers to fail and whether the transfer was running.
    mutating func cancelAll() -> (callers: [DownloadCaller], wasRunning: Bool) {
        let wasRunning = isRunning
        let removed = callers
        callers = []
        phase = .done
        return (removed, wasRunning)
    }
}
