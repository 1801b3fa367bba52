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

    /// The best wall-clock seconds of `ours` and of `theirs` over `rounds` rounds, each round timing one run
    /// of each (after one warm-up run of each), so load from other processes on a shared machine hits both
    /// sides alike instead of whichever happened to run during a busy spell. Which side goes first alternates
    /// from round to round, so neither always inherits the caches the other left.
    static func interleavedBest(rounds: Int = 9, _ ours: () throws -> Void,
                                _ theirs: () throws -> Void) rethrows -> (ours: Double, theirs: Double) {
        try ours()
        try theirs()
        var best = (ours: Double.infinity, theirs: Double.infinity)
        for round in 0..<rounds {
            if round.isMultiple(of: 2) {
                best.ours = min(best.ours, try time(ours))
                best.theirs = min(best.theirs, try time(theirs))
            } else {
                best.theirs = min(best.theirs, try time(theirs))
                best.ours = min(best.ours, try time(ours))
            }
        }
        return best
    }

    /// Wall-clock seconds of one run of `body`.
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Prints a full-decode row (throughputs in MP/s) and, under it, the ratio against issue 2's target.
    static func decodeRow(_ name: String, megapixels: Double, ours: Double, theirs: Double, target: Double = 0.95) {
        row(name, ours: megapixels / ours, theirs: megapixels / theirs, unit: "MP/s", higherIsBetter: true)
        let ratio = theirs / ours
        print(String(format: "  ours/raw %.3f× (target ≥ %.2f×) %@", ratio, target, ratio >= target ? "met" : "NOT MET"))
    }

    /// Prints one row: the name, both figures, and the ratio ours ÷ theirs (or theirs ÷ ours for times).
    static func row(_ name: String, ours: Double, theirs: Double, unit: String, higherIsBetter: Bool) {
        let ratio = higherIsBetter ? ours / theirs : theirs / ours
        let line = "\(name.padding(toLength: 50, withPad: " ", startingAt: 0)) "
            + String(format: "ours %10.2f %@   raw %10.2f %@   ratio %.3f×", ours, unit, theirs, unit, ratio)
        print(line)
    }
}
