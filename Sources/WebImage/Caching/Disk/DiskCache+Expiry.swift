import Foundation
import Glibc

extension DiskCache {
    /// One entry file as listed: its name, size and the date ``Configuration/expireType`` ages it by.
    struct EntryInfo: Sendable {
        var name: String
        var size: Int
        var date: Date
    }

    /// Temporary files older than this are leftovers of a killed writer, not a write in progress.
    static let abandonedTemporaryAge: TimeInterval = 600

    /// Deletes expired entries, then, if still over ``Configuration/maxDiskSize``, the least recently used
    /// ones until at most half the limit is used (SDWebImage's `removeExpiredData`).
    ///
    /// Entries older than ``Configuration/maxDiskAge`` (by ``Configuration/expireType``) expire; a negative
    /// age keeps everything, 0 expires everything. Also removes temporary files abandoned by killed writers,
    /// extended-data and validator sidecars whose entry is gone, and validator files of the old layout
    /// (``isLegacyValidatorFile(atPath:size:)``).
    public func removeExpiredData() {
        var entries = listEntries()
        if configuration.maxDiskAge >= 0 {
            let cutoff = Date().addingTimeInterval(-configuration.maxDiskAge)
            let expired = entries.filter { $0.date <= cutoff }
            for entry in expired { removeFile(entry.name) }
            entries.removeAll { $0.date <= cutoff }
            reportExpiry(removed: expired, remaining: entries)
        }
        if configuration.maxDiskSize > 0, entries.reduce(0, { $0 + $1.size }) > configuration.maxDiskSize {
            trim(entries, toSize: configuration.maxDiskSize / 2)
        } else {
            index.withLock { $0 = DiskCacheIndex(entries) }
            instruments.bytes.record(entries.reduce(0) { $0 + $1.size })
        }
        removeLeftovers()
    }

    /// Deletes the oldest of `entries` (by the expire type's date) until the rest total at most `size`.
    func trim(_ entries: [EntryInfo], toSize size: Int) {
        let before = entries.reduce(0) { $0 + $1.size }
        var total = before
        var kept = entries.sorted { $0.date < $1.date }[...]
        while total > size, let oldest = kept.first {
            removeFile(oldest.name)
            total -= oldest.size
            kept = kept.dropFirst()
        }
        index.withLock { $0 = DiskCacheIndex(Array(kept)) }
        reportTrim(removed: entries.count - kept.count, freed: before - total, remaining: total, target: size)
    }

    /// Every entry file in the directory (hidden temporary and sidecar files and old-layout validator files
    /// excluded); access dates include the hits not yet written to disk.
    func listEntries() -> [EntryInfo] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
        var listed: [(name: String, attributes: DiskFileIO.Attributes)] = []
        for name in names where !name.hasPrefix(".") {
            let path = directoryPath + "/" + name
            guard let attributes = DiskFileIO.attributes(path),
                  !Self.isLegacyValidatorFile(atPath: path, size: attributes.size) else { continue }
            listed.append((name, attributes))
        }
        return accessLog.withLock { log in
            log.prune(listed: Dictionary(listed.map { ($0.name, $0.attributes.accessed) }, uniquingKeysWith: { $1 }))
            return listed.map { name, attributes in
                var attributes = attributes
                attributes.accessed = log.lastAccess(of: name, recorded: attributes.accessed)
                return EntryInfo(name: name, size: attributes.size, date: date(of: name, attributes))
            }
        }
    }

    /// Moves every file of `oldDirectory` into this cache's directory, then removes `oldDirectory`.
    ///
    /// A file whose name is already taken here is left out (the newer entry wins). Missing `oldDirectory`:
    /// nothing to do. Throws ``WebImageError/cacheFailure(path:reason:)`` when this cache's directory cannot
    /// be created or the old one cannot be listed.
    public func moveItems(from oldDirectory: URL) throws {
        let oldPath = oldDirectory.standardizedFileURL.path
        guard oldPath != directoryPath, FileManager.default.fileExists(atPath: oldPath) else { return }
        do {
            try DiskFileIO.makeDirectory(directoryPath)
        } catch let failure as DiskFileIO.Failure {
            throw WebImageError.cacheFailure(path: directoryPath, reason: failure.message)
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: oldPath)
        } catch {
            throw WebImageError.cacheFailure(path: oldPath, reason: "cannot list: \(error.localizedDescription)")
        }
        for name in names where !FileManager.default.fileExists(atPath: directoryPath + "/" + name) {
            try? FileManager.default.moveItem(atPath: oldPath + "/" + name, toPath: directoryPath + "/" + name)
        }
        try? FileManager.default.removeItem(atPath: oldPath)
        index.withLock { $0 = nil }
    }

    private func removeFile(_ name: String) {
        unlink(directoryPath + "/" + name)
        unlink(sidecarPath(for: name))
        unlink(validatorsSidecarPath(for: name))
    }

    private func date(of name: String, _ attributes: DiskFileIO.Attributes) -> Date {
        switch configuration.expireType {
        case .accessDate: return attributes.accessed.date
        case .modificationDate: return attributes.modified.date
        case .creationDate:
            let created = try? FileManager.default.attributesOfItem(atPath: directoryPath + "/" + name)[.creationDate]
            return created as? Date ?? attributes.modified.date
        }
    }

    /// Temporary files of killed writers, sidecars of removed entries and old-layout validator files.
    private func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
        let abandoned = Date().addingTimeInterval(-Self.abandonedTemporaryAge)
        for name in names {
            let path = directoryPath + "/" + name
            if !name.hasPrefix(".") {
                if let attributes = DiskFileIO.attributes(path),
                   Self.isLegacyValidatorFile(atPath: path, size: attributes.size) { unlink(path) }
            } else if name.hasPrefix(DiskFileIO.temporaryPrefix) {
                if let attributes = DiskFileIO.attributes(path), attributes.modified.date < abandoned { unlink(path) }
            } else if let suffix = [".extended", ".validators"].first(where: name.hasSuffix) {
                let entry = String(name.dropFirst().dropLast(suffix.count))
                if !DiskFileIO.isFile(directoryPath + "/" + entry) { unlink(path) }
            }
        }
    }
}
