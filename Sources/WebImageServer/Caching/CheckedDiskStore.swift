import Foundation
import WebImage

/// A disk cache whose entries are checked when read: each entry's extended data starts with the
/// ``DiskChecksum`` of its bytes, so a file changed after it was written (a disk error, a torn copy, an
/// edit) or written by an earlier version without the checksum is a miss, removed and counted, never served.
/// Calls block on file I/O: run them off the cooperative pool.
struct CheckedDiskStore: Sendable {
    let disk: DiskCache
    let statistics: ProxyStatistics

    init(_ disk: DiskCache, statistics: ProxyStatistics) {
        self.disk = disk
        self.statistics = statistics
    }

    /// What `decode` makes of the verified bytes under `key` and the extended data stored beside them (after
    /// the checksum), or nil. An entry that fails the checksum, or that `decode` refuses, is removed and counted.
    func read<Value>(forKey key: String, _ decode: (_ data: Data, _ extended: Data) -> Value?) -> Value? {
        guard let data = disk.data(forKey: key) else { return nil }
        if let stored = disk.extendedData(forKey: key), let extended = DiskChecksum.verified(stored, of: data),
           let value = decode(data, extended) {
            return value
        }
        disk.removeData(forKey: key)
        statistics.record(\.corruptDiskValues)
        return nil
    }

    /// Writes `data` with its checksum and `extended` beside it.
    func write(_ data: Data, forKey key: String, extended: Data = Data()) throws {
        try disk.setData(data, forKey: key, extendedData: DiskChecksum.stamp(data) + extended)
    }
}
