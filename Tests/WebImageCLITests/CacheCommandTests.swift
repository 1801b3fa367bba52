import Foundation
import Testing
import WebImage

/// `webimage cache path|stats|ls|clear|trim` over a cache the library itself wrote.
@Suite struct CacheCommandTests {
    /// A cache directory `<scratch>/base/ns` holding entries of the given sizes written in order (the last
    /// is the most recently used); the scratch directory lives as long as the fixture.
    private struct Fixture {
        let scratch: TemporaryDirectory
        let base: String
        let disk: DiskCache

        init(_ sizes: [Int]) throws {
            scratch = try TemporaryDirectory()
            base = scratch.path("base")
            disk = DiskCache(directory: URL(fileURLWithPath: base).appendingPathComponent("ns"))
            for (index, size) in sizes.enumerated() {
                try disk.setData(Data(repeating: UInt8(index), count: size), forKey: "http://example.com/\(index).png")
            }
        }
    }

    private func json(_ result: CLIRunner.Result) throws -> [String: Any] {
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object)
    }

    @Test func pathIsTheNamespaceDirectory() async throws {
        let fixture = try Fixture([])
        let base = fixture.base, disk = fixture.disk
        let result = try await CLIRunner.run(["cache", "path", "--cache-dir", base, "--namespace", "ns"])
        #expect(result.status == 0)
        #expect(result.stdout == disk.directory.path + "\n")
    }

    @Test func statsCountBytesAndAccessDates() async throws {
        let fixture = try Fixture([100, 250, 4000])
        let base = fixture.base, disk = fixture.disk
        let stats = try await json(CLIRunner.run(["cache", "stats", "--cache-dir", base, "--namespace", "ns", "--json"]))
        #expect(stats["path"] as? String == disk.directory.path)
        #expect(stats["count"] as? Int == 3)
        #expect(stats["bytes"] as? Int == 4350)
        let oldest = try #require(stats["oldestAccess"] as? String)
        let newest = try #require(stats["newestAccess"] as? String)
        #expect(oldest <= newest)
        #expect(oldest.hasSuffix("Z"))
    }

    @Test func lsListsNewestFirst() async throws {
        let fixture = try Fixture([10, 20, 30])
        let base = fixture.base
        let result = try await CLIRunner.run(["cache", "ls", "--cache-dir", base, "--namespace", "ns", "--json"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["bytes"] as? Int } == [30, 20, 10])
        #expect(objects.allSatisfy { ($0["file"] as? String)?.hasSuffix(".png") == true })
    }

    @Test func clearRemovesEverything() async throws {
        let fixture = try Fixture([100, 200])
        let base = fixture.base
        let cleared = try await json(CLIRunner.run(["cache", "clear", "--cache-dir", base, "--namespace", "ns", "--json"]))
        #expect(cleared["removedCount"] as? Int == 2)
        #expect(cleared["removedBytes"] as? Int == 300)
        #expect(cleared["count"] as? Int == 0)
        let stats = try await json(CLIRunner.run(["cache", "stats", "--cache-dir", base, "--namespace", "ns", "--json"]))
        #expect(stats["count"] as? Int == 0)
        #expect(stats["bytes"] as? Int == 0)
        #expect(stats["oldestAccess"] is NSNull)
    }

    @Test func trimBySizeKeepsTheMostRecentlyUsed() async throws {
        let fixture = try Fixture([1000, 1000, 1000])
        let base = fixture.base, disk = fixture.disk
        let trimmed = try await json(CLIRunner.run(["cache", "trim", "--cache-dir", base, "--namespace", "ns",
                                              "--max-size", "2500", "--max-age=-1", "--json"]))
        // Over 2500 bytes: the least recently used go until at most half the limit (1250) is used.
        #expect(trimmed["removedCount"] as? Int == 2)
        #expect(trimmed["count"] as? Int == 1)
        #expect(trimmed["bytes"] as? Int == 1000)
        #expect(disk.containsData(forKey: "http://example.com/2.png"))
    }

    @Test func trimByAgeZeroRemovesAll() async throws {
        let fixture = try Fixture([10, 10])
        let base = fixture.base
        let trimmed = try await json(CLIRunner.run(["cache", "trim", "--cache-dir", base, "--namespace", "ns",
                                              "--max-age", "0", "--json"]))
        #expect(trimmed["removedCount"] as? Int == 2)
        #expect(trimmed["count"] as? Int == 0)
    }

    @Test func badLimitIsOneLine() async throws {
        let fixture = try Fixture([])
        let base = fixture.base, disk = fixture.disk
        let result = try await CLIRunner.run(["cache", "trim", "--cache-dir", base, "--namespace", "ns", "--max-size=-5"])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["webimage: \(disk.directory.path): bad --max-size '-5': give a byte count of 0 or more"])
    }
}
