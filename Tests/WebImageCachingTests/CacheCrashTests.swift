import Foundation
import Glibc
import TestSupport
import Testing
import WebImage

@Suite("Disk cache: crash safety")
struct CacheCrashTests {
    /// The crash writer built beside this test binary.
    private var writerURL: URL {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("CacheCrashWriter")
    }

    /// Whether `data` is exactly what the writer writes for `key` (header, then the regenerated payload).
    private func isIntact(_ data: Data, key: String) -> Bool {
        guard let newline = data.firstIndex(of: 0x0A) else { return false }
        let fields = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ")
        var values: [String: String] = [:]
        for field in fields {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard values["key"] == key, let count = values["len"].flatMap(Int.init),
              let seed = values["seed"].flatMap(UInt64.init) else { return false }
        return data[(newline + 1)...] == SplitMix64.bytes(count: count, seed: seed)
    }

    /// What the rounds saw; checked back in the test, where issues are attributed to it.
    private struct Observations: Sendable {
        var torn: [String] = []
        var notKilledBySignal = 0
        var intact = 0
        var readWhileWriting = 0
        var entryNames: [String] = []
    }

    @Test("a writer killed with SIGKILL at random points 20 times never shows nor leaves a torn entry")
    func killedWriter() async throws {
        let writer = writerURL
        try #require(FileManager.default.isExecutableFile(atPath: writer.path),
                     "build the CacheCrashWriter product first (swift build --build-tests)")
        // Waiting for the child and reading in a busy loop block a thread for seconds: not a cooperative one.
        let seen = try await onDedicatedThread { try killRepeatedly(writer) }
        #expect(seen.torn.isEmpty, "\(seen.torn)")
        #expect(seen.notKilledBySignal == 0)
        #expect(seen.intact > 0)
        #expect(seen.readWhileWriting > 0)
        #expect(seen.entryNames.allSatisfy { $0.count == 32 })
    }

    /// A real full disk can't be made here without mounting a file system; a file-size limit in a child process
    /// makes `write` fail part-way the same way (EFBIG instead of ENOSPC), through the same code.
    @Test("a store that runs out of space throws cacheFailure and keeps the previous entry whole")
    func fullDisk() async throws {
        let writer = writerURL
        try #require(FileManager.default.isExecutableFile(atPath: writer.path),
                     "build the CacheCrashWriter product first (swift build --build-tests)")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let output: String = try await onDedicatedThread {
            let process = try SpawnedProcess(writer, ["--full-disk", directory.path], stdout: .pipe)
            let text = String(decoding: process.standardOutput?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        let disk = DiskCache(directory: directory.url)
        #expect(output.hasPrefix("threw 1101 cache failure at \(disk.path(forKey: "entry")): write("), "\(output)")
        #expect(output.contains("File too large"), "\(output)")
        #expect(disk.data(forKey: "entry") == Data(repeating: 0xAA, count: 1_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [DiskCache.fileName(forKey: "entry")])
    }

    private func killRepeatedly(_ writer: URL) throws -> Observations {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var generator = SystemRandomNumberGenerator()
        var seen = Observations()
        for round in 0..<20 {
            let process = try SpawnedProcess(writer, [directory.path, String(round + 1)], stdout: .pipe)
            _ = process.standardOutput?.readData(ofLength: 8)
            // Read (as a second process would) while the writer runs, until a random moment to kill it.
            let deadline = Date().addingTimeInterval(Double.random(in: 0.005...0.12, using: &generator))
            let reader = DiskCache(directory: directory.url)
            var index = 0
            repeat {
                let key = "key-\(index % 40)"
                if let data = reader.data(forKey: key) {
                    if !isIntact(data, key: key) { seen.torn.append("round \(round): \(key) read torn while being written") }
                    seen.readWhileWriting += 1
                }
                index += 1
            } while Date() < deadline
            process.signal(SIGKILL)
            process.waitUntilExit()
            if process.exitedNormally { seen.notKilledBySignal += 1 }

            let disk = DiskCache(directory: directory.url)
            for index in 0..<40 {
                let key = "key-\(index)"
                guard let data = disk.data(forKey: key) else { continue }
                if !isIntact(data, key: key) { seen.torn.append("round \(round): \(key) reads back torn (\(data.count) bytes)") }
                seen.intact += 1
            }
        }
        seen.entryNames = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        return seen
    }
}
