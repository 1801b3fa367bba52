import Foundation
import TestSupport

/// Where the tests find this target's own fixtures (the conformance corpora are `TestCorpus`'s).
enum TestPaths {
    /// `Tests/WebImageCodecsTests/Fixtures/<folder>/<name>`.
    static func fixture(_ folder: String, _ name: String) -> URL {
        TestCorpus.packageRoot.appendingPathComponent("Tests/WebImageCodecsTests/Fixtures").appendingPathComponent(folder)
            .appendingPathComponent(name)
    }

    static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }
}
