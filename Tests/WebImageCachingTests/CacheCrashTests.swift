import Foundation
import Glibc
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
        return data[(newline + 1)...] == crashPayload(count: count, seed: seed)
    }

    @Test("a writer killed with SIGKILL at random points 20 times never shows nor leaves a torn entry")
    func killedWriter() async throws {
        let writer = writerURL
        try #require(FileManager.default.isExecutableFile(atPath: writer.path),
                     "build the CacheCrashWriter product first (swift build --build-tests)")
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var generator = SystemRandomNumberGenerator()
        var intact = 0, readWhileWriting = 0
        for round in 0..<20 {
            let process = Process()
            process.executableURL = writer
            process.arguments = [directory.path, String(round + 1)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            _ = output.fileHandleForReading.readData(ofLength: 8)
            // Read (as a second process would) while the writer runs, until a random moment to kill it.
            let deadline = Date().addingTimeInterval(Double.random(in: 0.005...0.12, using: &generator))
            let reader = DiskCache(directory: directory.url)
            var index = 0
            repeat {
                let key = "key-\(index % 40)"
                if let data = reader.data(forKey: key) {
                    #expect(isIntact(data, key: key), "round \(round): \(key) read torn while being written")
                    readWhileWriting += 1
                }
                index += 1
            } while Date() < deadline
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)

            let disk = DiskCache(directory: directory.url)
            for index in 0..<40 {
                let key = "key-\(index)"
                guard let data = disk.data(forKey: key) else { continue }
                #expect(isIntact(data, key: key), "round \(round): \(key) reads back torn (\(data.count) bytes)")
                intact += 1
            }
        }
        #expect(intact > 0)
        #expect(readWhileWriting > 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { !$0.hasPrefix(".") }.allSatisfy { $0.count == 32 })
    }
}

/// SplitMix64 output bytes, as the crash writer generates its payloads.
func crashPayload(count: Int, seed: UInt64) -> Data {
    var generator = SplitMix64(seed: seed)
    var bytes = [UInt8](repeating: 0, count: count)
    for index in stride(from: 0, to: count, by: 8) {
        let word = generator.next()
        for offset in 0..<min(8, count - index) { bytes[index + offset] = UInt8(truncatingIfNeeded: word >> (8 * offset)) }
    }
    return Data(bytes)
}
