/// One batch's bookkeeping as a value: which URL starts next, how many run, finished and skipped counts.
///
/// The token mutates it under its lock and acts on the answers outside, so loads that complete
/// synchronously (memory hits) or race a cancel are counted exactly once.
struct PrefetchState {
    let total: Int
    let maxConcurrent: Int
    private(set) var nextIndex = 0
    private(set) var running = 0
    private(set) var finished = 0
    private(set) var skipped = 0
    private(set) var isCancelled = false
    private(set) var didComplete = false

    init(total: Int, maxConcurrent: Int) {
        self.total = total
        self.maxConcurrent = max(1, maxConcurrent)
    }

    /// The index of the next URL to start, if a slot is free and the batch goes on.
    mutating func claimNext() -> Int? {
        guard !isCancelled, running < maxConcurrent, nextIndex < total else { return nil }
        defer { nextIndex += 1 }
        running += 1
        return nextIndex
    }

    /// A load ended; returns the counts to report.
    mutating func record(gotImage: Bool) -> (finished: Int, skipped: Int) {
        running -= 1
        finished += 1
        if !gotImage { skipped += 1 }
        return (finished, skipped)
    }

    /// Cancels: every URL not started yet counts as finished and skipped; returns how many that was.
    @discardableResult
    mutating func cancel() -> Int {
        guard !isCancelled else { return 0 }
        isCancelled = true
        let unstarted = total - nextIndex
        nextIndex = total
        finished += unstarted
        skipped += unstarted
        return unstarted
    }

    /// True exactly once, when every URL is dealt with.
    mutating func claimCompletion() -> Bool {
        guard !didComplete, finished == total, running == 0 else { return false }
        didComplete = true
        return true
    }
}
