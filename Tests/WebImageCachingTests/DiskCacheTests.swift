import Foundation
import Testing
@testable import WebImage

@Suite("Disk cache")
struct DiskCacheTests {
    @Test("set, read, contains, remove, count and size")
    func basics() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url.appendingPathComponent("ns"))
        #expect(disk.data(forKey: "a.png") == nil)
        try disk.setData(Data(repeating: 1, count: 100), forKey: "a.png")
        try disk.setData(Data(repeating: 2, count: 50), forKey: "https://example.com/b.jpg")
        #expect(disk.data(forKey: "a.png") == Data(repeating: 1, count: 100))
        #expect(disk.containsData(forKey: "https://example.com/b.jpg"))
        #expect(FileManager.default.fileExists(atPath: disk.path(forKey: "a.png")))
        #expect(disk.totalCount() == 2)
        #expect(disk.totalSize() == 150)
        try disk.setData(Data(repeating: 3, count: 10), forKey: "a.png")
        #expect(disk.data(forKey: "a.png") == Data(repeating: 3, count: 10))
        #expect(disk.totalSize() == 60)
        disk.removeData(forKey: "a.png")
        #expect(!disk.containsData(forKey: "a.png"))
        #expect(disk.totalCount() == 1)
        disk.removeAll()
        #expect(disk.totalCount() == 0)
        #expect(FileManager.default.fileExists(atPath: disk.directory.path))
    }

    @Test("writes leave no temporary files behind")
    func noTemporaryLeftovers() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        for index in 0..<20 { try disk.setData(Data(repeating: UInt8(index), count: 1000), forKey: "k\(index)") }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == 20)
        #expect(names.allSatisfy { !$0.hasPrefix(".") })
    }

    @Test("a reader racing a rewriting writer only ever sees complete versions")
    func readersNeverSeePartialFiles() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        let versions = (0..<4).map { Data(repeating: UInt8($0 + 1), count: 512 * 1024 + $0 * 4096) }
        try disk.setData(versions[0], forKey: "big")
        let torn = Recorder<Int>(), seen = Recorder<Int>()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<60 { try? disk.setData(versions[round % 4], forKey: "big") }
            }
            group.addTask {
                for _ in 0..<300 {
                    guard let data = disk.data(forKey: "big") else { continue }
                    seen.record(data.count)
                    if !versions.contains(data) { torn.record(data.count) }
                }
            }
        }
        #expect(seen.count > 0)
        #expect(torn.count == 0)
    }

    @Test("extended data is stored in a user xattr and replaced with the entry")
    func extendedDataXattr() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url)
        try disk.setData(Data([1]), forKey: "k", extendedData: Data("meta".utf8))
        #expect(disk.extendedData(forKey: "k") == Data("meta".utf8))
        try disk.setData(Data([2]), forKey: "k")
        #expect(disk.extendedData(forKey: "k") == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == 1)
    }

    @Test("extended data falls back to a hidden sidecar, removed with the entry")
    func extendedDataSidecar() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url, configuration: .init(useExtendedAttributes: false))
        try disk.setData(Data([1, 2]), forKey: "k.png", extendedData: Data("side".utf8))
        #expect(disk.extendedData(forKey: "k.png") == Data("side".utf8))
        let sidecar = directory.path + "/." + DiskCache.fileName(forKey: "k.png") + ".extended"
        #expect(FileManager.default.fileExists(atPath: sidecar))
        #expect(disk.totalCount() == 1)
        #expect(disk.totalSize() == 2)
        disk.removeData(forKey: "k.png")
        #expect(!FileManager.default.fileExists(atPath: sidecar))
        #expect(disk.extendedData(forKey: "k.png") == nil)
    }

    @Test("a directory deleted under a running cache is recreated on the next write")
    func directoryRecreated() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(directory: directory.url.appendingPathComponent("ns"), configuration: .init(maxDiskSize: 1000))
        try disk.setData(Data([1]), forKey: "a")
        try FileManager.default.removeItem(at: disk.directory)
        #expect(disk.data(forKey: "a") == nil)
        try disk.setData(Data([2]), forKey: "b")
        #expect(disk.data(forKey: "b") == Data([2]))
        #expect(disk.totalCount() == 1)
    }

    @Test("an unusable directory fails the write with cacheFailure and reads miss")
    func unusableDirectory() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let blocker = directory.url.appendingPathComponent("file")
        try Data([0]).write(to: blocker)
        let disk = DiskCache(directory: blocker.appendingPathComponent("ns"))
        #expect(disk.data(forKey: "a") == nil)
        #expect(disk.totalCount() == 0)
        let error = #expect(throws: WebImageError.self) { try disk.setData(Data([1]), forKey: "a") }
        guard case .cacheFailure(let path, _) = error else {
            Issue.record("expected cacheFailure, got \(String(describing: error))")
            return
        }
        #expect(path == disk.path(forKey: "a"))
        #expect(error?.code == 1101)
    }
}
