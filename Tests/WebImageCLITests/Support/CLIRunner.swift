import Foundation
import Testing
import TestSupport

/// Runs the built `webimage` executable as a subprocess, as a user or a script would.
enum CLIRunner {
    /// What one run printed and how it exited.
    struct Result {
        var status: Int32
        /// False when the process died from a signal (a Swift runtime trap, a crash).
        var exitedNormally: Bool
        var stdout: String
        var stderr: String
        /// Non-empty stderr lines.
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    }

    enum Failure: Error, CustomStringConvertible {
        case binaryMissing([String])
        case timedOut([String])

        var description: String {
            switch self {
            case .binaryMissing(let looked):
                "the executable was not found (run `swift build --build-tests` first); looked at: "
                    + looked.joined(separator: ", ")
            case .timedOut(let arguments): "webimage \(arguments.joined(separator: " ")) did not finish in time"
            }
        }
    }

    /// The executable `name` next to the test bundle (`.build/<triple>/debug/webimage`), found from the running
    /// test process's own location, falling back to the package's `.build/debug`. `WEBIMAGE_EXECUTABLE` names
    /// another build of `webimage` instead, to show what a test checks against an older one.
    static func executable(named name: String = "webimage") throws -> URL {
        if name == "webimage", let override = ProcessInfo.processInfo.environment["WEBIMAGE_EXECUTABLE"] {
            return URL(fileURLWithPath: override)
        }
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        directories.append(TestCorpus.packageRoot.appendingPathComponent(".build/debug"))
        let candidates = directories.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Failure.binaryMissing(candidates.map(\.path))
        }
        return found
    }

    /// Runs `webimage arguments…` in `directory`, killing it after `timeout` seconds (a hang is a failure).
    ///
    /// Suspends until the process exits instead of sleeping on a thread: a test that blocks a thread of the
    /// cooperative pool (two on a two-core machine) stalls every other test in the process meanwhile.
    static func run(_ arguments: [String], in directory: URL? = nil, timeout: Double = 300) async throws -> Result {
        let scratch = try TemporaryDirectory()
        let out = scratch.url.appendingPathComponent("stdout"), err = scratch.url.appendingPathComponent("stderr")
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
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
        if await watchdog.value { throw Failure.timedOut(arguments) }
        return Result(status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
                      stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}

/// A fresh directory under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
