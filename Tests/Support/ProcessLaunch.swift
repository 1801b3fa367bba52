import Foundation
import Synchronization

/// Starts the test process's children one at a time. On Linux, Foundation's `Process.run` closes in its child only
/// the descriptors up to the highest one open when it looked, and its exit-watch socket and `Pipe`s are made
/// without close-on-exec: a child started at the same moment can inherit another run's socket or pipe, and that
/// run's exit or end of output then goes unseen until the other child ends (a one-second CLI run took 90 s beside a
/// long-lived child in CI).
public enum ProcessLaunch {
    private static let lock = Mutex(())

    /// Runs `body` — making the child's pipes and calling `Process.run` — while no other child is being started.
    public static func exclusively<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try body() }
    }
}
