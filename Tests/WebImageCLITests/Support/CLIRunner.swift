import Foundation
import Testing
import TestSupport

/// Runs the built `webimage` (or `webimage-demo`) executable as a subprocess, as a user or a script would.
enum CLIRunner {
    /// What one run printed and how it exited.
    typealias Result = ChildProcess

    enum Failure: Error, CustomStringConvertible {
        case timedOut([String])

        var description: String {
            switch self {
            case .timedOut(let command): "\(command.joined(separator: " ")) did not finish in time"
            }
        }
    }

    /// The built executable `name` (``BuiltExecutable``); `WEBIMAGE_EXECUTABLE` names another build of
    /// `webimage` instead, to show what a test checks against an older one.
    static func executable(named name: String = "webimage") throws -> URL {
        if name == "webimage", let override = ProcessInfo.processInfo.environment["WEBIMAGE_EXECUTABLE"] {
            return URL(fileURLWithPath: override)
        }
        return try BuiltExecutable.url(name)
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
