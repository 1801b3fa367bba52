import Foundation

/// Where the tests find their data: the shared conformance corpora and this target's own fixtures.
enum TestPaths {
    /// The project root (three levels above this file).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared/corpus` relative to the project root.
    static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    /// `Tests/WebImageCodecsTests/Fixtures/<folder>/<name>`.
    static func fixture(_ folder: String, _ name: String) -> URL {
        root.appendingPathComponent("Tests/WebImageCodecsTests/Fixtures").appendingPathComponent(folder)
            .appendingPathComponent(name)
    }

    static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }
}
