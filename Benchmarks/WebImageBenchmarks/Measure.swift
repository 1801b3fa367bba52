import Foundation
import Synchronization

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

    /// Runs async benchmark work from a synchronous suite and waits for it; rethrows its error.
    static func waitFor(_ work: @escaping @Sendable () async throws -> Void) throws {
        let semaphore = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        Task {
            do { try await work() } catch { failure.withLock { $0 = error } }
            semaphore.signal()
        }
        semaphore.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// One side's best run: thread CPU seconds and wall-clock seconds, each the minimum over the runs.
    struct Best {
        var cpu = Double.infinity
        var wall = Double.infinity
        /// Every run's thread CPU seconds, in order.
        var cpuTimes: [Double] = []
    }

    /// Which CPU time a run is charged: the calling thread's, or the whole process's (every thread), for
    /// decoders and encoders that hand work to threads of their own.
    enum CPUClock {
        case thread, process

        var id: clockid_t { self == .thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID }
    }

    /// Both sides' best runs, plus raw ÷ ours CPU time of each round (the two runs made back to back).
    struct Comparison {
        var ours = Best()
        var theirs = Best()
        var roundRatios: [Double] = []

        /// The median round's raw ÷ ours: each round's two runs saw nearly the same machine load, so this
        /// ratio drifts far less with other processes than the ratio of two separately taken minima.
        var medianRatio: Double {
            let sorted = roundRatios.sorted()
            return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        }

        /// The lowest and highest round's raw ÷ ours, as "0.93–1.04".
        var ratioRange: String {
            String(format: "%.3f–%.3f", roundRatios.min() ?? .nan, roundRatios.max() ?? .nan)
        }
    }

    /// Times `ours` and `theirs` over `rounds` rounds, each round timing one run of each (after one warm-up
    /// run of each), so load from other processes on a shared machine hits both sides alike instead of
    /// whichever happened to run during a busy spell. Which side goes first alternates from round to round,
    /// so neither always inherits the caches the other left.
    ///
    /// A run is charged `clock`'s CPU time (user + kernel, page faults included): the calling thread's for
    /// single-threaded work, the process's when a codec runs threads of its own. Either way it is the work
    /// done; unlike wall-clock time it leaves out the time other processes held the cores.
    static func interleavedBest(rounds: Int = 15, clock: CPUClock = .thread, _ ours: () throws -> Void,
                                _ theirs: () throws -> Void) rethrows -> Comparison {
        try ours()
        try theirs()
        var result = Comparison()
        for round in 0..<rounds {
            let (oursCPU, theirsCPU): (Double, Double)
            if round.isMultiple(of: 2) {
                oursCPU = try time(ours, clock: clock, into: &result.ours)
                theirsCPU = try time(theirs, clock: clock, into: &result.theirs)
            } else {
                theirsCPU = try time(theirs, clock: clock, into: &result.theirs)
                oursCPU = try time(ours, clock: clock, into: &result.ours)
            }
            result.roundRatios.append(theirsCPU / oursCPU)
        }
        return result
    }

    /// The median thread CPU seconds of `first` and of `second` over `rounds` rounds, each round timing one run
    /// of each back to back (after one warm-up run of each), in alternating order as in ``interleavedBest``.
    static func pairedMedians(rounds: Int, _ first: () throws -> Void,
                              _ second: () throws -> Void) rethrows -> (first: Double, second: Double) {
        let comparison = try interleavedBest(rounds: rounds, first, second)
        let median = { (times: [Double]) in times.sorted()[times.count / 2] }
        return (median(comparison.ours.cpuTimes), median(comparison.theirs.cpuTimes))
    }

    /// Runs `body` once, lowers `best` to its times and returns its CPU seconds.
    private static func time(_ body: () throws -> Void, clock: CPUClock, into best: inout Best) rethrows -> Double {
        let cpuStart = cpuTime(clock), wallStart = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - wallStart
        let cpu = cpuTime(clock) - cpuStart
        best.cpu = min(best.cpu, cpu)
        best.cpuTimes.append(cpu)
        best.wall = min(best.wall, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        return cpu
    }

    /// CPU seconds the calling thread (or the process) has used.
    static func cpuTime(_ clock: CPUClock) -> Double {
        var now = timespec()
        clock_gettime(clock.id, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Prints a full-decode row (throughputs in MP/s from each side's best CPU time) and, under it, issue 2's
    /// target judged on the median paired-round ratio, with the best-of and wall-clock ratios beside it.
    static func decodeRow(_ name: String, megapixels: Double, _ comparison: Comparison, target: Double = 0.95) {
        let ours = comparison.ours, theirs = comparison.theirs
        row(name, ours: megapixels / ours.cpu, theirs: megapixels / theirs.cpu, unit: "MP/s", higherIsBetter: true)
        let median = comparison.medianRatio
        print(String(format: "  ours/raw median of rounds %.3f× (range %@, target ≥ %.2f×) %@   [best-of %.3f×, wall-clock %.3f×]",
                     median, comparison.ratioRange, target, median >= target ? "met" : "NOT MET",
                     theirs.cpu / ours.cpu, theirs.wall / ours.wall))
    }

    /// Prints one row: the name, both figures, and the ratio ours ÷ theirs (or theirs ÷ ours for times).
    static func row(_ name: String, ours: Double, theirs: Double, unit: String, higherIsBetter: Bool) {
        let ratio = higherIsBetter ? ours / theirs : theirs / ours
        let line = "\(name.padding(toLength: 50, withPad: " ", startingAt: 0)) "
            + String(format: "ours %10.2f %@   raw %10.2f %@   ratio %.3f×", ours, unit, theirs, unit, ratio)
        print(line)
    }
}
