import Foundation

/// The package's executables as the build left them, found from the running test process's own location
/// (`.build/<triple>/debug/<name>`), falling back to the package's `.build/debug`: the CLI tests run `webimage`,
/// the service's PDF tests draw in its `pdf-page` child, the namespace tests run their own children.
public enum BuiltExecutable {
    public struct Missing: Error, CustomStringConvertible {
        public var looked: [String]
        public var description: String {
            "the executable was not found (run `swift build --build-tests` first); looked at: "
                + looked.joined(separator: ", ")
        }
    }

    public static func url(_ name: String) throws -> URL {
        var directories: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
        directories.append(TestCorpus.packageRoot.appendingPathComponent(".build/debug"))
        let candidates = directories.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Missing(looked: candidates.map(\.path))
        }
        return found
    }
}
