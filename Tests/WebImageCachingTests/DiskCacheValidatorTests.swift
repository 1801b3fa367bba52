import Foundation
import Testing
@testable import WebImage

/// HTTP validators are an entry's own metadata: never an entry of their own, gone with the entry.
@Suite("Disk cache validators")
struct DiskCacheValidatorTests {
    private static let validators = HTTPValidators(etag: "\"v1\"", lastModified: "Wed, 21 Oct 2015 07:28:00 GMT")

    /// The directory's file names, hidden ones included.
    private func names(_ disk: DiskCache) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: disk.directory.path).sorted()
    }

    @Test("kept in an extended attribute: one file per entry, counted once, removed with it",
          arguments: [true, false])
    func keptWithTheEntry(extendedAttributes: Bool) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url,
                             configuration: DiskCache.Configuration(useExtendedAttributes: extendedAttributes))
        let keys = ["https://example.com/a.jpg", "https://example.com/b.png"]
        #expect(try !disk.setValidators(Self.validators, forKey: keys[0]))
        for key in keys {
            try disk.setData(Data(repeating: 1, count: 100), forKey: key)
            #expect(try disk.setValidators(Self.validators, forKey: key))
        }
        #expect(disk.validators(forKey: keys[0]) == Self.validators)
        #expect(disk.totalCount() == 2)
        #expect(disk.totalSize() == 200)
        let visible = try names(disk).filter { !$0.hasPrefix(".") }
        #expect(visible == keys.map(DiskCache.fileName(forKey:)).sorted())
        // Without extended attributes, one hidden sidecar per entry.
        #expect(try names(disk).count == (extendedAttributes ? 2 : 4))
        disk.removeData(forKey: keys[0])
        #expect(disk.validators(forKey: keys[0]) == nil)
        #expect(try names(disk).count == (extendedAttributes ? 1 : 2))
    }

    @Test("rewriting the entry drops its validators")
    func rewriteDropsThem() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for extendedAttributes in [true, false] {
            let disk = DiskCache(directory: directory.url.appendingPathComponent("\(extendedAttributes)"),
                                 configuration: DiskCache.Configuration(useExtendedAttributes: extendedAttributes))
            try disk.setData(Data([1, 2, 3]), forKey: "k.png")
            try disk.setValidators(HTTPValidators(etag: "\"a\""), forKey: "k.png")
            #expect(disk.validators(forKey: "k.png")?.etag == "\"a\"")
            try disk.setData(Data([4, 5, 6]), forKey: "k.png")
            #expect(disk.validators(forKey: "k.png") == nil)
            #expect(try names(disk) == ["k.png"].map(DiskCache.fileName(forKey:)))
        }
    }

    @Test("expired and trimmed with the entry, sidecars included")
    func expiredWithTheEntry() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url,
                             configuration: DiskCache.Configuration(maxDiskAge: 0, useExtendedAttributes: false))
        try disk.setData(Data(repeating: 1, count: 10), forKey: "old.png")
        try disk.setValidators(Self.validators, forKey: "old.png")
        disk.removeExpiredData()
        #expect(try names(disk).isEmpty)
    }

    /// Older versions stored validators as a 68-byte entry of their own (key + `#SwiftWebImage.validators`).
    @Test("validator files of the old layout are not entries and go at the next expiry run")
    func legacyFilesAreCleanedUp() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        let key = "https://example.com/a.jpg"
        let legacy = Data("E:\"v1\"\nL:Wed, 21 Oct 2015 07:28:00 GMT".utf8)
        try disk.setData(legacy, forKey: key + "#SwiftWebImage.validators")
        // A real image under 1 KB stays an entry: a 1×1 GIF.
        let gif = Data([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0,
                        2, 2, 0x44, 1, 0, 0x3B])
        try disk.setData(gif, forKey: key)
        let legacyPath = disk.path(forKey: key + "#SwiftWebImage.validators")
        #expect(legacyPath.hasSuffix(".jpg"))
        #expect(DiskCache.isLegacyValidatorFile(atPath: legacyPath, size: legacy.count))
        #expect(!DiskCache.isLegacyValidatorFile(atPath: disk.path(forKey: key), size: gif.count))
        #expect(disk.totalCount() == 1)
        #expect(disk.totalSize() == gif.count)
        disk.removeExpiredData()
        #expect(!FileManager.default.fileExists(atPath: legacyPath))
        #expect(disk.data(forKey: key) == gif)
    }

    @Test("the stored form round-trips either validator alone")
    func storedForm() {
        for validators in [Self.validators, HTTPValidators(etag: "W/\"x\""), HTTPValidators(lastModified: "yesterday")] {
            #expect(HTTPValidators(storedForm: validators.storedForm) == validators)
        }
        #expect(HTTPValidators(storedForm: Data()) == nil)
    }

    @Test("checkWritable creates the directory and refuses one that cannot hold files")
    func checkWritable() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url.appendingPathComponent("a/b"))
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent("a"))
        try disk.checkWritable()
        #expect(try names(disk).isEmpty)
        let proc = DiskCache(directory: URL(fileURLWithPath: "/proc/swiftwebimage-test/cache"))
        let error = #expect(throws: WebImageError.self) { try proc.checkWritable() }
        guard case .cacheFailure(let path, let reason) = error else {
            Issue.record("expected cacheFailure, got \(String(describing: error))")
            return
        }
        #expect(path == "/proc/swiftwebimage-test/cache")
        #expect(reason == "mkdir(/proc/swiftwebimage-test): No such file or directory")
    }
}
