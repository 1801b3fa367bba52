import Foundation
import TestSupport

/// Runs the built `webimage` in a child process and reports the child's own peak memory and run time, so
/// memory bounds are measured where the work happens, never in the test runner.
///
/// The child runs under `PeakRSS` (a small executable of this package): it forks the command, caps its
/// address space (so a regression fails its test instead of taking the shared machine's memory), and reads
/// its `ru_maxrss` from `wait4`. Spawning the command straight from the test runner would not do: a child's
/// `ru_maxrss` includes the resident set of the process it was exec'd from.
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
        var description: String
    }

    /// The cap on the child's address space: far above any bound the tests assert, far below the machine.
    static let addressSpaceLimitKB = 3 * 1024 * 1024

    /// Runs `webimage arguments…`, its standard input read from `input` when given; killed (and reported as
    /// signal 9) after `timeout` seconds.
    static func run(_ arguments: [String], input: URL? = nil, timeout: Double = 120) async throws -> Result {
        let launch = try Launch(arguments, input: input, timeout: timeout)
        await launch.process.exited()
        return try launch.result(arguments)
    }

    /// `webimage arguments…` started under `PeakRSS`, writing to files of a scratch directory.
    struct Launch {
        let process: SpawnedProcess
        private let scratch: TemporaryDirectory
        let stdout: URL

        init(_ arguments: [String], input: URL? = nil, timeout: Double) throws {
            scratch = try TemporaryDirectory()
            stdout = scratch.url.appendingPathComponent("stdout")
            let err = scratch.url.appendingPathComponent("stderr")
            process = try SpawnedProcess(try CLIRunner.executable(named: "PeakRSS"),
                                         [scratch.path("report"), String(MeasuredRun.addressSpaceLimitKB), String(timeout),
                                          try CLIRunner.executable().path] + arguments,
                                         stdin: input.map { .file($0) } ?? .null, stdout: .file(stdout), stderr: .file(err))
        }

        /// What `PeakRSS` reported, once it has exited.
        func result(_ arguments: [String]) throws -> Result {
            let fields = (try? String(contentsOfFile: scratch.path("report"), encoding: .utf8))?.split(separator: " ") ?? []
            guard process.termination == .exited(0), fields.count == 4, let status = Int32(fields[0]),
                  let signal = Int32(fields[1]), let peakKB = Double(fields[2]),
                  let seconds = Double(fields[3].trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw Failure(description: "PeakRSS failed (status \(process.terminationStatus)) for \(arguments)")
            }
            return Result(status: status, signal: signal == 0 ? nil : signal,
                          stdout: String(decoding: try Data(contentsOf: stdout), as: UTF8.self),
                          stderr: String(decoding: try Data(contentsOf: scratch.url.appendingPathComponent("stderr")),
                                         as: UTF8.self),
                          peakMB: peakKB / 1024, seconds: seconds)
        }
    }

    /// The child's peak RSS for a run that does next to nothing (`decode` of a 1×1 PNG): the baseline the
    /// bounds are stated over.
    static func baselineMB() async throws -> Double {
        let dir = try TemporaryDirectory()
        let png = dir.path("dot.png")
        try LargeImages.png(width: 1, height: 1, alpha: true).write(to: URL(fileURLWithPath: png))
        let result = try await run(["decode", png, "-o", dir.path("dot.pam")])
        guard result.status == 0 else { throw Failure(description: "the baseline run failed: \(result.stderr)") }
        return result.peakMB
    }
}
