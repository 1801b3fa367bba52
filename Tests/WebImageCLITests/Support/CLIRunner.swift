import Foundation
import Testing
import TestSupport

/// Runs the built `webimage` (or `webimage-demo`) executable as a subprocess, as a user or a script would.
enum CLIRunner {
    /// What one run printed and how it exited.
    typealias Result = ChildProcess

    enum Failure: Error, CustomStringConvertible {
        case binaryMissing([String])
        case timedOut([String])

        var description: String {
            switch self {
            case .binaryMissing(let looked):
                "the executable was not found (run `swift build --build-tests` first); looked at: "
                    + looked.joined(separator: ", ")
            case .timedOut(let command): "\(command.joined(separator: " ")) did not finish in time"
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

    /// Runs `<name> arguments…` (`webimage` unless named) in `directory`, killing it after `timeout` seconds
    /// (a hang is a failure).
    static func run(_ arguments: [String], executable name: String = "webimage", in directory: URL? = nil,
                    environment: [String: String]? = nil, timeout: Double = 300) async throws -> Result {
        do {
            return try await ChildProcess.run(try executable(named: name), arguments, in: directory,
                                              environment: environment, timeout: timeout)
        } catch is ChildProcess.TimedOut {
            throw Failure.timedOut([name] + arguments)
        }
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
