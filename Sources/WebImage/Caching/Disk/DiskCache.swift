import Foundation
import Glibc
import Synchronization

/// A directory of files, one per key, written atomically: the disk half of the image cache.
///
/// File names follow SDWebImage (``fileName(forKey:)``), so a cache directory can be shared with its tools.
/// Every write goes to a temporary file in the same directory and is renamed into place: a reader in this or
/// another process sees the old entry or the complete new one, and a process killed mid-write leaves no
/// entry that reads back wrong. The size limit is enforced on write; age is enforced by
/// ``removeExpiredData()``. Methods are synchronous and thread-safe; ``ImageCache`` calls them on its own
/// I/O queue, never on Swift's cooperative pool.
///
/// ```swift
/// let disk = DiskCache(directory: DiskCache.defaultBaseDirectory.appendingPathComponent("thumbnails"))
/// try disk.setData(bytes, forKey: "https://example.com/a.jpg")
/// let again = disk.data(forKey: "https://example.com/a.jpg")
/// ```
public final class DiskCache: Sendable {
    /// The directory holding the entries.
    public let directory: URL
    /// The expiry, size and write settings it was created with.
    public let configuration: Configuration
    let directoryPath: String
    /// Known entry sizes; nil until first needed (and after the directory vanished).
    let index = Mutex<DiskCacheIndex?>(nil)
    /// Hits not yet written into the files' access times.
    let accessLog = Mutex(DiskCacheAccessLog())
    /// The logger and metrics of ``Configuration/logger`` and ``Configuration/metricsFactory``.
    let instruments: DiskCacheInstruments

    /// The extended attribute holding an entry's extended data.
    static let extendedAttributeName = "user.swiftwebimage.extended"

    /// A cache in `directory` (created now if possible, else on the first write).
    public init(directory: URL, configuration: Configuration = Configuration()) {
        self.directory = directory.standardizedFileURL
        self.configuration = configuration
        directoryPath = self.directory.path
        instruments = DiskCacheInstruments(logger: configuration.logger, factory: configuration.metricsFactory)
        try? DiskFileIO.makeDirectory(directoryPath)
    }

    /// `$XDG_CACHE_HOME/SwiftWebImage`, else `~/.cache/SwiftWebImage`: where caches put their namespaces.
    /// Values at least this large (1 MiB) are written around the page cache, with direct I/O: little CPU, but the
    /// write waits on the device.
    public static var directWriteThreshold: Int { DiskFileIO.directWriteThreshold }

    public static var defaultBaseDirectory: URL {
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("SwiftWebImage")
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".cache").appendingPathComponent("SwiftWebImage")
    }

    /// Creates the directory if needed and proves an entry can be written there, so a cache that cannot work
    /// fails up front instead of every store failing quietly.
    ///
    /// Writes and removes a one-byte temporary file. Throws ``WebImageError/cacheFailure(path:reason:)`` naming
    /// the reason (`/proc` is read-only, permission denied, disk full…).
    public func checkWritable() throws {
        do {
            try DiskFileIO.makeDirectory(directoryPath)
            let probe = directoryPath + "/" + DiskFileIO.temporaryName() + "-probe"
            try DiskFileIO.atomicWrite(Data([0]), to: probe, directory: directoryPath, stamp: DiskFileIO.uniqueStamp(),
                                       durable: false) { _ in }
            unlink(probe)
        } catch let failure as DiskFileIO.Failure {
            throw WebImageError.cacheFailure(path: directoryPath, reason: failure.message)
        }
    }

    /// The path the entry for `key` is written to (it may not exist).
    public func path(forKey key: String) -> String {
        directoryPath + "/" + Self.fileName(forKey: key)
    }

    /// The entry's bytes, or nil; a hit records the access (see ``DiskCacheExpireType/accessDate``).
    ///
    /// Falls back to the name without extension (entries written by older SDWebImage-style caches).
    public func data(forKey key: String) -> Data? {
        let stamp = DiskFileIO.uniqueStamp()
        let bare = Self.hashedName(forKey: key), ext = Self.fileExtension(forKey: key)
        for name in ext.isEmpty ? [bare] : [bare + "." + ext, bare] {
            let data = DiskFileIO.read(directoryPath + "/" + name, accessStamp: stamp,
                                       staleness: DiskCacheAccessLog.writeBackInterval)
            guard let data else { continue }
            accessLog.withLock { $0.record(name, at: stamp) }
            return data
        }
        return nil
    }

    /// Whether an entry exists for `key` (with or without extension).
    public func containsData(forKey key: String) -> Bool {
        DiskFileIO.isFile(path(forKey: key)) || DiskFileIO.isFile(directoryPath + "/" + Self.hashedName(forKey: key))
    }

    /// Writes the entry atomically, with optional extended data, then trims if the size limit is exceeded.
    ///
    /// A missing directory (deleted under a running cache) is recreated. Throws
    /// ``WebImageError/cacheFailure(path:reason:)`` when the directory cannot be created or written (no
    /// permission, disk full); the previous entry, if any, is then left as it was.
    public func setData(_ data: Data, forKey key: String, extendedData: Data? = nil) throws {
        let name = Self.fileName(forKey: key)
        let target = directoryPath + "/" + name
        var needsSidecar = false
        let write = {
            try DiskFileIO.atomicWrite(data, to: target, directory: self.directoryPath, stamp: DiskFileIO.uniqueStamp(),
                                       durable: self.configuration.writingOptions.contains(.durable)) { fd in
                guard let extendedData else { return }
                guard self.configuration.useExtendedAttributes else {
                    needsSidecar = true
                    return
                }
                needsSidecar = try !DiskFileIO.setAttribute(Self.extendedAttributeName, extendedData, fd: fd, path: target)
            }
        }
        do {
            do {
                try write()
            } catch let failure as DiskFileIO.Failure where failure.errno == ENOENT {
                try DiskFileIO.makeDirectory(directoryPath)
                index.withLock { $0 = nil }
                try write()
            }
            try updateSidecar(for: name, extendedData: needsSidecar ? extendedData : nil)
            // Validators describe the bytes they were stored with (the attribute went with the old file).
            unlink(validatorsSidecarPath(for: name))
        } catch let failure as DiskFileIO.Failure {
            throw reportWriteFailure(.cacheFailure(path: target, reason: failure.message), key: key)
        }
        accessLog.withLock { $0.forget(name) }
        recordWrite(name, size: data.count)
    }

    /// The extended data stored with the entry, or nil.
    public func extendedData(forKey key: String) -> Data? {
        let name = Self.fileName(forKey: key)
        switch DiskFileIO.attribute(Self.extendedAttributeName, path: directoryPath + "/" + name) {
        case .value(let data): return data
        case .absent, .unsupported: return DiskFileIO.read(sidecarPath(for: name), accessStamp: nil)
        }
    }

    /// Removes the entry (both names, with its extended data and validators).
    public func removeData(forKey key: String) {
        for name in [Self.fileName(forKey: key), Self.hashedName(forKey: key)] {
            unlink(directoryPath + "/" + name)
            unlink(sidecarPath(for: name))
            unlink(validatorsSidecarPath(for: name))
            index.withLock { $0?.remove(name) }
            accessLog.withLock { $0.forget(name) }
        }
    }

    /// Removes every entry; the directory stays.
    public func removeAll() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
        for name in names { unlink(directoryPath + "/" + name) }
        index.withLock { $0 = DiskCacheIndex() }
        accessLog.withLock { $0.forgetAll() }
        reportCleared(files: names.count)
    }

    /// The bytes all entries take (a fresh listing of the directory).
    public func totalSize() -> Int {
        let total = refreshIndex().reduce(0) { $0 + $1.size }
        instruments.bytes.record(total)
        return total
    }

    /// The number of entries (a fresh listing of the directory).
    public func totalCount() -> Int {
        refreshIndex().count
    }

    func sidecarPath(for name: String) -> String {
        directoryPath + "/." + name + ".extended"
    }

    private func updateSidecar(for name: String, extendedData: Data?) throws {
        guard let extendedData else {
            unlink(sidecarPath(for: name))
            return
        }
        try DiskFileIO.atomicWrite(extendedData, to: sidecarPath(for: name), directory: directoryPath,
                                   stamp: DiskFileIO.uniqueStamp(), durable: false) { _ in }
    }

    /// Accounts a write and trims when it took the total over ``Configuration/maxDiskSize``.
    private func recordWrite(_ name: String, size: Int) {
        let limit = configuration.maxDiskSize
        guard limit > 0 else { return }
        let total = index.withLock { index -> Int in
            var current = index ?? DiskCacheIndex(listEntries())
            current.record(name, size: size)
            index = current
            return current.totalSize
        }
        instruments.bytes.record(total)
        if total > limit { trim(listEntries(), toSize: limit / 2) }
    }

    @discardableResult
    private func refreshIndex() -> [EntryInfo] {
        let entries = listEntries()
        index.withLock { $0 = DiskCacheIndex(entries) }
        return entries
    }
}
