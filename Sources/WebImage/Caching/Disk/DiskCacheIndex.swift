/// The sizes of the entries a ``DiskCache`` knows about, so a write can tell it crossed the size limit
/// without listing the directory.
///
/// Built from a directory listing on first need and kept up to date by this process's writes and removes;
/// another process's writes are only seen at the next listing, which every trim starts with, so the index
/// only decides *when* to look, never *what* to delete.
struct DiskCacheIndex: Sendable {
    private(set) var sizes: [String: Int] = [:]
    private(set) var totalSize = 0

    init(_ entries: [DiskCache.EntryInfo] = []) {
        for entry in entries { record(entry.name, size: entry.size) }
    }

    mutating func record(_ name: String, size: Int) {
        totalSize += size - (sizes[name] ?? 0)
        sizes[name] = size
    }

    mutating func remove(_ name: String) {
        if let size = sizes.removeValue(forKey: name) { totalSize -= size }
    }
}
