import Foundation
import WebImage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One entry file of a disk cache directory, as `cache ls` and `cache stats` report it.
///
/// Read with `stat` rather than through `DiskCache`, whose listing is internal: entry files are the
/// directory's non-hidden regular files (temporary files and metadata sidecars start with a dot), except the
/// validator files older versions wrote as entries of their own (`DiskCache.isLegacyValidatorFile`).
/// The access date is the one the cache itself records on every hit (it sets the file's atime).
struct CacheEntry: Equatable {
    /// The file name (the MD5 of the key plus the URL's extension, as SDWebImage names them).
    var name: String
    var bytes: Int
    var accessed: Date

    /// Every entry of `directory`, most recently used first; a missing directory has none.
    static func list(_ directory: String) -> [CacheEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name -> CacheEntry? in
            guard !name.hasPrefix(".") else { return nil }
            var info = stat()
            let path = directory + "/" + name
            guard stat(path, &info) == 0, info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG),
                  !DiskCache.isLegacyValidatorFile(atPath: path, size: Int(info.st_size)) else { return nil }
            let accessed = Date(timeIntervalSince1970: TimeInterval(info.st_atim.tv_sec)
                                    + TimeInterval(info.st_atim.tv_nsec) / 1e9)
            return CacheEntry(name: name, bytes: Int(info.st_size), accessed: accessed)
        }.sorted { ($0.accessed, $0.name) > ($1.accessed, $1.name) }
    }
}

/// Dates in the tool's output: ISO 8601 in UTC with milliseconds (`2026-11-22T08:15:00.123Z`).
enum Timestamp {
    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
