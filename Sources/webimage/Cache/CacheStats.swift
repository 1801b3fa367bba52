import Foundation

/// What `cache stats` reports; its JSON keys are part of the tool's contract.
struct CacheStats: Encodable, Equatable {
    /// The cache directory.
    var path: String
    /// Number of entries.
    var count: Int
    /// Bytes all entries take.
    var bytes: Int
    /// When the least recently used entry was last read or written (ISO 8601), nil when empty.
    var oldestAccess: String?
    /// When the most recently used entry was last read or written (ISO 8601), nil when empty.
    var newestAccess: String?

    init(path: String, entries: [CacheEntry]) {
        self.path = path
        count = entries.count
        bytes = entries.reduce(0) { $0 + $1.bytes }
        oldestAccess = entries.map(\.accessed).min().map(Timestamp.text)
        newestAccess = entries.map(\.accessed).max().map(Timestamp.text)
    }

    /// Keeps `null` for the dates of an empty cache instead of leaving the keys out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(count, forKey: .count)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(oldestAccess, forKey: .oldestAccess)
        try container.encode(newestAccess, forKey: .newestAccess)
    }

    private enum CodingKeys: String, CodingKey {
        case path, count, bytes, oldestAccess, newestAccess
    }

    /// The human-readable form.
    var text: String {
        [path,
         "  entries     \(count)",
         "  bytes       \(bytes)",
         "  oldest      \(oldestAccess ?? "-")",
         "  newest      \(newestAccess ?? "-")"].joined(separator: "\n")
    }
}

/// What `cache clear` and `cache trim` report: what went and what is left.
struct CacheRemoval: Encodable, Equatable {
    var removedCount: Int
    var removedBytes: Int
    var count: Int
    var bytes: Int

    init(before: [CacheEntry], after: [CacheEntry]) {
        let kept = Set(after.map(\.name))
        let removed = before.filter { !kept.contains($0.name) }
        removedCount = removed.count
        removedBytes = removed.reduce(0) { $0 + $1.bytes }
        count = after.count
        bytes = after.reduce(0) { $0 + $1.bytes }
    }

    /// The one-line human-readable form.
    var text: String {
        "removed \(removedCount) entries (\(removedBytes) bytes); \(count) left (\(bytes) bytes)"
    }
}
