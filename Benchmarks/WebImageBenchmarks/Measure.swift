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

    /// Prints one row: the name, both figures, and the ratio ours ÷ theirs (or theirs ÷ ours for times).
    static func row(_ name: String, ours: Double, theirs: Double, unit: String, higherIsBetter: Bool) {
        let ratio = higherIsBetter ? ours / theirs : theirs / ours
        let line = "\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) "
            + String(format: "ours %10.2f %@   raw %10.2f %@   ratio %.3f×", ours, unit, theirs, unit, ratio)
        print(line)
    }
}
