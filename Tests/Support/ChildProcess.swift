import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process run to its end, with what it printed: the CLI tests' `webimage` runs, and the children whose
/// subject could trap (a trap must fail the test, not end the test runner).
public struct ChildProcess: Sendable {
    public var status: Int32
    /// False when the child died from a signal (a Swift runtime trap, a crash).
    public var exitedNormally: Bool
    public var stdout: String
    public var stderr: String

    /// Non-empty stderr lines.
    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// The child was still running at its timeout and was killed.
    public struct TimedOut: Error, CustomStringConvertible {
        public var command: [String]
        public var description: String { "\(command.joined(separator: " ")) did not finish in time" }
    }

    /// Runs `executable arguments…` (in `directory`, with `environment` when given), killing it after `timeout`
    /// seconds. Output goes through files, so a chatty child never blocks on a full pipe, and the caller suspends
    /// instead of sleeping on a thread: a test that blocks a thread of the cooperative pool (two on a two-core
    /// machine) stalls every other test in the process meanwhile.
    public static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String]? = nil, timeout: Double) async throws -> ChildProcess {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout"), err = scratch.appendingPathComponent("stderr")
        let process = try SpawnedProcess(executable, arguments, environment: environment, directory: directory,
                                         stdout: .file(out), stderr: .file(err))
        let watchdog = Task {
            guard (try? await Task.sleep(for: .seconds(timeout))) != nil else { return false }
            process.signal(SIGKILL)
            return true
        }
        await process.exited()
        watchdog.cancel()
        if await watchdog.value { throw TimedOut(command: [executable.path] + arguments) }
        return ChildProcess(status: process.terminationStatus, exitedNormally: process.exitedNormally,
                            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
