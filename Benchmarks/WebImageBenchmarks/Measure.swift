import Foundation

/// Timing helpers shared by every benchmark suite.
enum Measure {
    /// The best (lowest) wall-clock seconds of `repeats` runs of `body`, after one warm-up run.
    static func best(repeats: Int = 5, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var best = Double.infinity
        for _ in 0..<repeats {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        return best
    }

    /// One side's best run: thread CPU seconds and wall-clock seconds, each the minimum over the runs.
    struct Best {
        var cpu = Double.infinity
        var wall = Double.infinity
    }

    /// The best times of `ours` and of `theirs` over `rounds` rounds, each round timing one run of each (after
    /// one warm-up run of each), so load from other processes on a shared machine hits both sides alike
    /// instead of whichever happened to run during a busy spell. Which side goes first alternates from round
    /// to round, so neither always inherits the caches the other left.
    ///
    /// Every decoder measured is single-threaded, so the calling thread's CPU time (user + kernel, page
    /// faults included) is the work done; unlike wall-clock time it leaves out the time other processes
    /// held the core, which on a 2-core machine shared by several builds is most of the noise.
    static func interleavedBest(rounds: Int = 15, _ ours: () throws -> Void,
                                _ theirs: () throws -> Void) rethrows -> (ours: Best, theirs: Best) {
        try ours()
        try theirs()
        var best = (ours: Best(), theirs: Best())
        for round in 0..<rounds {
            if round.isMultiple(of: 2) {
                try time(ours, into: &best.ours)
                try time(theirs, into: &best.theirs)
            } else {
                try time(theirs, into: &best.theirs)
                try time(ours, into: &best.ours)
            }
        }
        return best
    }

    /// Runs `body` once and lowers `best` to its times.
    private static func time(_ body: () throws -> Void, into best: inout Best) rethrows {
        let cpuStart = threadCPUTime(), wallStart = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - wallStart
        best.cpu = min(best.cpu, threadCPUTime() - cpuStart)
        best.wall = min(best.wall, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// CPU seconds the calling thread has used.
    private static func threadCPUTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Prints a full-decode row (throughputs in MP/s from CPU time) and, under it, the ratio against issue 2's
    /// target, with the wall-clock ratio beside it.
    static func decodeRow(_ name: String, megapixels: Double, ours: Best, theirs: Best, target: Double = 0.95) {
        row(name, ours: megapixels / ours.cpu, theirs: megapixels / theirs.cpu, unit: "MP/s", higherIsBetter: true)
        let ratio = theirs.cpu / ours.cpu
        print(String(format: "  ours/raw %.3f× (target ≥ %.2f×) %@   [wall-clock %.3f×]", ratio, target,
                     ratio >= target ? "met" : "NOT MET", theirs.wall / ours.wall))
    }

    /// Prints one row: the name, both figures, and the ratio ours ÷ theirs (or theirs ÷ ours for times).
    static func row(_ name: String, ours: Double, theirs: Double, unit: String, higherIsBetter: Bool) {
        let ratio = higherIsBetter ? ours / theirs : theirs / ours
        let line = "\(name.padding(toLength: 50, withPad: " ", startingAt: 0)) "
            + String(format: "ours %10.2f %@   raw %10.2f %@   ratio %.3f×", ours, unit, theirs, unit, ratio)
        print(line)
    }
}
