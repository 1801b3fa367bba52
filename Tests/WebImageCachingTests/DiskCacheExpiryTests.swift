import Foundation
import TestSupport
import Testing
@testable import WebImage

@Suite("Disk cache expiry, size limit and migration")
struct DiskCacheExpiryTests {
    private static let day: Double = 24 * 3600

    @Test("the default age is one week, by access date")
    func defaultAge() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        #expect(disk.configuration.maxDiskAge == 7 * Self.day)
        #expect(disk.configuration.expireType == .accessDate)
        #expect(disk.configuration.maxDiskSize == 0)
        for key in ["old", "recent", "oldButRead"] { try disk.setData(Data([1]), forKey: key) }
        setFileDates(disk.path(forKey: "old"), accessedSecondsAgo: 8 * Self.day, modifiedSecondsAgo: 8 * Self.day)
        setFileDates(disk.path(forKey: "recent"), accessedSecondsAgo: 6 * Self.day, modifiedSecondsAgo: 8 * Self.day)
        setFileDates(disk.path(forKey: "oldButRead"), accessedSecondsAgo: 8 * Self.day, modifiedSecondsAgo: 8 * Self.day)
        #expect(disk.data(forKey: "oldButRead") == Data([1]))
        disk.removeExpiredData()
        #expect(!disk.containsData(forKey: "old"))
        #expect(disk.containsData(forKey: "recent"))
        #expect(disk.containsData(forKey: "oldButRead"))
    }

    @Test("modification-date expiry ignores reads")
    func modificationDate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url, configuration: .init(maxDiskAge: Self.day, expireType: .modificationDate))
        try disk.setData(Data([1]), forKey: "old")
        try disk.setData(Data([1]), forKey: "new")
        setFileDates(disk.path(forKey: "old"), modifiedSecondsAgo: 2 * Self.day)
        #expect(disk.data(forKey: "old") != nil)
        disk.removeExpiredData()
        #expect(!disk.containsData(forKey: "old"))
        #expect(disk.containsData(forKey: "new"))
    }

    @Test("creation-date expiry: a fresh entry lives, age 0 removes it")
    func creationDate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let day = DiskCache(directory: directory.url.appendingPathComponent("day"),
                            configuration: .init(maxDiskAge: Self.day, expireType: .creationDate))
        let zero = DiskCache(directory: directory.url.appendingPathComponent("zero"),
                             configuration: .init(maxDiskAge: 0, expireType: .creationDate))
        try day.setData(Data([1]), forKey: "k")
        try zero.setData(Data([1]), forKey: "k")
        setFileDates(day.path(forKey: "k"), accessedSecondsAgo: 3 * Self.day, modifiedSecondsAgo: 3 * Self.day)
        day.removeExpiredData()
        zero.removeExpiredData()
        #expect(day.containsData(forKey: "k"))
        #expect(!zero.containsData(forKey: "k"))
    }

    @Test("ImageCache.deleteOldFiles removes expired entries on demand")
    func deleteOldFiles() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "old")
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "new")
        setFileDates(cache.cachePath(forKey: "old"), accessedSecondsAgo: 8 * Self.day)
        await cache.deleteOldFiles()
        #expect(await cache.containsImage(forKey: "old") == ImageCacheType.none)
        #expect(await cache.containsImage(forKey: "new") == .disk)
    }

    @Test("age 0 expires everything at cleanup; a negative age never expires")
    func zeroAndNegativeAge() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let never = DiskCache(directory: directory.url.appendingPathComponent("never"), configuration: .init(maxDiskAge: -1))
        let always = DiskCache(directory: directory.url.appendingPathComponent("always"), configuration: .init(maxDiskAge: 0))
        for index in 0..<3 {
            try never.setData(Data([1]), forKey: "k\(index)")
            try always.setData(Data([1]), forKey: "k\(index)")
            setFileDates(never.path(forKey: "k\(index)"), accessedSecondsAgo: 3650 * Self.day,
                         modifiedSecondsAgo: 3650 * Self.day)
        }
        never.removeExpiredData()
        always.removeExpiredData()
        #expect(never.totalCount() == 3)
        #expect(always.totalCount() == 0)
    }

    @Test("ten 100 KB entries under a 500 KB limit leave at most 250 KB, the most recently accessed")
    func sizeLimitOnWrite() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url, configuration: .init(maxDiskSize: 500_000))
        func write(_ index: Int) throws {
            try disk.setData(Data(repeating: UInt8(index), count: 100_000), forKey: "k\(index)")
        }
        for index in 0..<5 { try write(index) }
        #expect(disk.totalSize() == 500_000)
        #expect(disk.data(forKey: "k0") != nil)
        try write(5)
        #expect(disk.totalSize() == 200_000)
        #expect((0..<6).filter { disk.containsData(forKey: "k\($0)") } == [0, 5])
        for index in 6..<9 { try write(index) }
        #expect(disk.data(forKey: "k6") != nil)
        try write(9)
        #expect(disk.totalSize() <= 250_000)
        #expect((0..<10).filter { disk.containsData(forKey: "k\($0)") } == [6, 9])
    }

    @Test("a read rewrites the file's access time only when it is older than the staleness allowed")
    func accessTimeWriteBack() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/entry"
        try Data([1]).write(to: URL(fileURLWithPath: path))
        let stamp = DiskFileIO.uniqueStamp()
        // An access time ahead of the file's change time: the kernel's relatime leaves it alone on reads too.
        setFileDates(path, accessedSecondsAgo: -30)
        let ahead = try #require(DiskFileIO.attributes(path)).accessed.nanoseconds
        #expect(DiskFileIO.read(path, accessStamp: stamp, staleness: DiskCacheAccessLog.writeBackInterval) == Data([1]))
        #expect(try #require(DiskFileIO.attributes(path)).accessed.nanoseconds == ahead)
        setFileDates(path, accessedSecondsAgo: 61)
        #expect(DiskFileIO.read(path, accessStamp: stamp, staleness: DiskCacheAccessLog.writeBackInterval) == Data([1]))
        #expect(try #require(DiskFileIO.attributes(path)).accessed.nanoseconds == stamp.nanoseconds)
    }

    @Test("the access log answers the later of a logged hit and the file's time, and prunes what disk knows")
    func accessLog() {
        var log = DiskCacheAccessLog()
        log.record("a", at: timespec(nanoseconds: 2_000))
        log.record("b", at: timespec(nanoseconds: 2_000))
        log.record("gone", at: timespec(nanoseconds: 2_000))
        #expect(log.lastAccess(of: "a", recorded: timespec(nanoseconds: 1_000)).nanoseconds == 2_000)
        #expect(log.lastAccess(of: "a", recorded: timespec(nanoseconds: 3_000)).nanoseconds == 3_000)
        #expect(log.lastAccess(of: "never", recorded: timespec(nanoseconds: 5)).nanoseconds == 5)
        log.prune(listed: ["a": timespec(nanoseconds: 1_000), "b": timespec(nanoseconds: 2_000)])
        #expect(log.lastAccess(of: "a", recorded: timespec(nanoseconds: 0)).nanoseconds == 2_000)
        #expect(log.lastAccess(of: "b", recorded: timespec(nanoseconds: 0)).nanoseconds == 0)
        #expect(log.lastAccess(of: "gone", recorded: timespec(nanoseconds: 0)).nanoseconds == 0)
        log.forget("a")
        #expect(log.lastAccess(of: "a", recorded: timespec(nanoseconds: 0)).nanoseconds == 0)
        for index in 0..<DiskCacheAccessLog.capacity { log.record("n\(index)", at: timespec(nanoseconds: 7)) }
        #expect(log.lastAccess(of: "n0", recorded: timespec(nanoseconds: 0)).nanoseconds == 7)
        log.record("one more", at: timespec(nanoseconds: 7))
        #expect(log.lastAccess(of: "n0", recorded: timespec(nanoseconds: 0)).nanoseconds == 0)
        #expect(log.lastAccess(of: "one more", recorded: timespec(nanoseconds: 0)).nanoseconds == 7)
    }

    @Test("cleanup trims to half the size limit, oldest first")
    func cleanupTrims() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url, configuration: .init(maxDiskSize: 1_000))
        for index in 0..<4 { try disk.setData(Data(repeating: 0, count: 250), forKey: "k\(index)") }
        let second = DiskCache(directory: directory.url, configuration: .init(maxDiskSize: 0))
        try second.setData(Data(repeating: 0, count: 250), forKey: "k4")
        #expect(disk.totalSize() == 1_250)
        disk.removeExpiredData()
        #expect((0..<5).filter { disk.containsData(forKey: "k\($0)") } == [3, 4])
    }

    @Test("cleanup removes abandoned temporary files, not fresh ones")
    func abandonedTemporaries() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        let old = directory.path + "/.tmp-old", fresh = directory.path + "/.tmp-fresh"
        try Data([1]).write(to: URL(fileURLWithPath: old))
        try Data([1]).write(to: URL(fileURLWithPath: fresh))
        setFileDates(old, modifiedSecondsAgo: 3600)
        disk.removeExpiredData()
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }

    @Test("the expiry timer removes expired entries by itself")
    func expiryTimer() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory, configuration: .init(maxDiskAge: 0, expirationInterval: 0.05))
        try await cache.storeImageDataToDisk(FakeCoder.bytes(), forKey: "k")
        #expect(await eventually { !cache.diskCache.containsData(forKey: "k") })
    }

    @Test("migration moves all 100 files of an old directory and removes it")
    func migration() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let old = directory.url.appendingPathComponent("old")
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        for index in 0..<100 {
            try Data("entry \(index)".utf8).write(to: old.appendingPathComponent(DiskCache.fileName(forKey: "k\(index)")))
        }
        let cache = makeImageCache(in: directory)
        try await cache.storeImageDataToDisk(Data("kept".utf8), forKey: "k0")
        try await cache.migrateDiskCache(from: old)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(await cache.totalDiskCount() == 100)
        #expect(cache.diskCache.data(forKey: "k0") == Data("kept".utf8))
        for index in 1..<100 { #expect(cache.diskCache.data(forKey: "k\(index)") == Data("entry \(index)".utf8)) }
    }

    @Test("migrating from a missing directory does nothing")
    func migrationFromNowhere() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeImageCache(in: directory)
        try await cache.migrateDiskCache(from: directory.url.appendingPathComponent("absent"))
        #expect(await cache.totalDiskCount() == 0)
    }
}
