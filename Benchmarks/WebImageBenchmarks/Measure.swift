import Foundation

/// Timing helpers shared by every benchmark suite.
enum Measure {
    /// The best (lowest) wall-clock seconds of `repeats` runs of `body`, after one warm-up run.
    static func best(repeats: Int = 5, _ body: () throws -> Void) rethrows -> Double {
        try body()
        var best = Double.infinity
        for _ in 0..<repeats { best = min(best, try seconds(body)) }
        return best
    }

    /// The best seconds of each of `first` and `second`, run alternately `repeats` times after one warm-up each.
    ///
    /// Alternating spreads a noisy stretch of the shared machine over both sides instead of one.
    static func bestInterleaved(repeats: Int = 15, _ first: () throws -> Void,
                                _ second: () throws -> Void) rethrows -> (first: Double, second: Double) {
        try first()
        try second()
        var best = (first: Double.infinity, second: Double.infinity)
        for _ in 0..<repeats {
            best.first = min(best.first, try seconds(first))
            best.second = min(best.second, try seconds(second))
        }
        return best
    }

    private static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Prints one row: the name, both figures, and the ratio ours ÷ theirs (or theirs ÷ ours for times).
    static func row(_ name: String, ours: Double, theirs: Double, unit: String, higherIsBetter: Bool) {
        let ratio = higherIsBetter ? ours / theirs : theirs / ours
        let line = "\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) "
            + String(format: "ours %10.2f %@   raw %10.2f %@   ratio %.3f×", ours, unit, theirs, unit, ratio)
        print(line)
    }
}
