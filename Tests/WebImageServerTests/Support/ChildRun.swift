import Foundation

/// A child process run to its end, with what it printed; for tests whose subject could trap (a trap must fail
/// the test, not end the test runner) or could connect somewhere it should not.
struct ChildRun {
    var status: Int32
    /// False when the child died from a signal (a Swift runtime trap, a crash) or was killed at the timeout.
    var exitedNormally: Bool
    var stdout: String
    var stderr: String

    struct TimedOut: Error, CustomStringConvertible {
        var command: [String]
        var description: String { "\(command.joined(separator: " ")) did not finish in time" }
    }

    /// The path of the executable target `name`, built beside this test binary.
    static func besideTestBinary(_ name: String) -> String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Runs `executable arguments…` in a new network namespace whose only interface is loopback (brought up
    /// first): nothing it does can reach past this machine. As root (CI) the namespace is made directly; other
    /// users get one inside a user namespace (`unshare -r`, Debian's default allows it), where loopback
    /// connections to NIO servers were seen reset here, so only root runs are known to pass.
    static func loopbackOnly(_ executable: String, arguments: [String], timeout: Double) async throws -> ChildRun {
        let namespace = geteuid() == 0 ? "-n" : "-rn"
        // `ip` lives in sbin, which a non-root PATH may lack.
        let script = "PATH=\"$PATH:/usr/sbin:/sbin\" ip link set lo up && exec \"$0\" \"$@\""
        return try await run("/usr/bin/unshare", [namespace, "/bin/sh", "-c", script, executable] + arguments,
                             timeout: timeout)
    }

    /// Runs `executable arguments…`, killing it after `timeout` seconds; stdout and stderr go through files, so a
    /// chatty child never blocks on a full pipe.
    static func run(_ executable: String, _ arguments: [String], timeout: Double) async throws -> ChildRun {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout"), err = scratch.appendingPathComponent("stderr")
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let (exit, exited) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.finish() }
        try process.run()
        let watchdog = Task {
            guard (try? await Task.sleep(for: .seconds(timeout))) != nil else { return false }
            process.terminate()
            return true
        }
        for await _ in exit {}
        watchdog.cancel()
        if await watchdog.value { throw TimedOut(command: [executable] + arguments) }
        return ChildRun(status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
                        stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                        stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
