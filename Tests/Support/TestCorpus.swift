import Foundation

/// Where tests and benchmarks find the repository's files. Resolved from this source file's path (`Tests/Support/`),
/// so neither the working directory nor where the checkout sits matters: a plain clone finds its own corpus.
public enum TestCorpus {
    /// The package root, two levels above this file's folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/Corpus`: the conformance corpora (its README says where each set came from).
    public static let directory = packageRoot.appendingPathComponent("Tests/Corpus")

    /// A corpus file, `relative` to the corpus (`gif/samples/moon_impact.gif`).
    public static func url(_ relative: String) -> URL { directory.appendingPathComponent(relative) }

    /// A corpus file's path, as command lines take it.
    public static func path(_ relative: String) -> String { url(relative).path }

    /// A corpus file's bytes.
    public static func data(_ relative: String) throws -> Data { try Data(contentsOf: url(relative)) }
}
