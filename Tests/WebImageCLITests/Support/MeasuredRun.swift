import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// Runs the built `webimage` in a child process and reports its peak memory and run time, so memory bounds
/// are measured where the work happens, never in the test runner.
///
/// The child is spawned with `posix_spawn` and reaped with `wait4`, whose `ru_maxrss` is the child's own
/// peak resident set (Foundation's `Process` reaps children itself and hides it). It runs under a virtual
/// memory cap (`ulimit -v` in the shell that execs it, same process), so a regression fails its test
/// instead of taking the shared machine's memory.
enum MeasuredRun {
    struct Result {
        var status: Int32
        /// The signal that ended the child, nil when it exited.
        var signal: Int32?
        var stdout: String
        var stderr: String
        /// Peak resident set of the child, in MB.
        var peakMB: Double
        var seconds: Double
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The cap on the child's address space: far above any bound the tests assert, far below the machine.
    static let addressSpaceLimitKB = 3 * 1024 * 1024

    /// Runs `webimage arguments…`; killed (and reported as signal 9) after `timeout` seconds.
    static func run(_ arguments: [String], timeout: Double = 120) async throws -> Result {
        let executable = try CLIRunner.executable().path
        let scratch = try TemporaryDirectory()
        let out = scratch.path("stdout"), err = scratch.path("stderr")
        let shell = ["/bin/sh", "-c", "ulimit -v \(addressSpaceLimitKB) && exec \"$0\" \"$@\"", executable] + arguments
        let (status, peakKB, seconds) = try await onDedicatedThread {
            try spawnAndWait(shell, stdout: out, stderr: err, timeout: timeout)
        }
        let exited = status & 0x7F == 0
        return Result(status: exited ? (status >> 8) & 0xFF : -1, signal: exited ? nil : status & 0x7F,
                      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "",
                      peakMB: Double(peakKB) / 1024, seconds: seconds)
    }

    /// The child's peak RSS for a run that does next to nothing (`decode` of a 1×1 PNG): the baseline the
    /// bounds are stated over.
    static func baselineMB() async throws -> Double {
        let dir = try TemporaryDirectory()
        let png = dir.path("dot.png")
        try LargeImages.png(width: 1, height: 1, alpha: true).write(to: URL(fileURLWithPath: png))
        let result = try await run(["decode", png, "-o", dir.path("dot.pam")])
        guard result.status == 0 else { throw Failure(message: "the baseline run failed: \(result.stderr)") }
        return result.peakMB
    }

    private static func spawnAndWait(_ arguments: [String], stdout: String, stderr: String,
                                      timeout: Double) throws -> (status: Int32, peakKB: Int, seconds: Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = ContinuousClock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw Failure(message: "posix_spawn \(arguments[0]) failed: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            if ContinuousClock.now - start > .seconds(timeout) {
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                break
            }
            usleep(5_000)
        }
        let elapsed = ContinuousClock.now - start
        return (status, usage.ru_maxrss, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
