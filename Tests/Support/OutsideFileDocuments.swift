import Foundation

/// XML documents that name a file of this machine in each way XML can: an external entity, an external
/// parameter entity, and an external DTD. Each puts `secret` in a `<text>` if the reader loads the file.
public struct OutsideFileDocuments {
    public static let secret = "the machine's secret"
    private let folder: URL
    /// The documents, each with `root` (an open tag) as its root element, then `<text>`.
    public let documents: [String]

    public init(root: String = "<svg>") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("outside-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = folder.appendingPathComponent("secret.txt"), dtd = folder.appendingPathComponent("secret.dtd")
        try Data(Self.secret.utf8).write(to: text)
        try Data("<!ENTITY inner \"\(Self.secret)\">".utf8).write(to: dtd)
        documents = [
            "<!DOCTYPE svg [<!ENTITY leak SYSTEM \"\(text.absoluteString)\">]>\(root)<text>&leak;</text></svg>",
            "<!DOCTYPE svg [<!ENTITY % ext SYSTEM \"\(dtd.absoluteString)\"> %ext;]>\(root)<text>&inner;</text></svg>",
            "<!DOCTYPE svg SYSTEM \"\(dtd.absoluteString)\">\(root)<text>&inner;</text></svg>",
        ]
    }

    public func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
