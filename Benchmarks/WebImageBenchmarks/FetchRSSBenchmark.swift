import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 14's flat-memory row: one `webimage fetch --json` process loads 10,000 distinct full-size images
/// (the end-to-end mix, default limits, cold cache) and its resident memory is read from /proc after every
/// 1,000 results; after warm-up (the memory cache filling to its limit) it must stay flat.
enum FetchRSSBenchmark {
    static let count = 10_000, step = 1_000

    static func run() throws {
        try Measure.waitFor { try await measure() }
    }

    private static func measure() async throws {
        let fixtures = try EndToEndFixtures.make()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-rss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (server, list) = try await fixtures.serve(count: count, in: directory)
        guard let webimage = EndToEndBenchmark.cli() else {
            try await server.shutdown()
            return
        }
        let start = ContinuousClock.now
        let process = try SpawnedProcess(URL(fileURLWithPath: webimage),
                                         ["fetch", "--json", "--concurrency", "6", "--from", list.path,
                                          "--cache-dir", directory.appendingPathComponent("cache").path],
                                         stdout: .pipe)
        let samples = readLines(process.standardOutput?.fileDescriptor ?? -1) { _ in residentBytes(process.pid) }
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        let megabytes = samples.map { Double($0) / 1_048_576 }
        print(String(format: "fetch --json of %d distinct full-size images: %.0f img/s, exit status %d", count,
                     Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18),
                     process.terminationStatus))
        print("  RSS MB after every \(step) results: " + megabytes.map { String(format: "%.0f", $0) }.joined(separator: ", "))
        if megabytes.count >= 3 {
            let afterWarmUp = megabytes.dropFirst()
            print(String(format: "  from %d to %d results: %.0f–%.0f MB, last − second %+.0f MB (flat: within ±10 %%)",
                         2 * step, count, afterWarmUp.min()!, afterWarmUp.max()!, megabytes.last! - megabytes[1]))
        }
        try await server.shutdown()
    }

    /// Reads the pipe to its end, calling `sample` after every `step` lines; returns the samples.
    private static func readLines(_ fd: Int32, sample: (Int) -> Int) -> [Int] {
        var samples: [Int] = []
        var lines = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return samples }
            for byte in buffer[..<count] where byte == UInt8(ascii: "\n") {
                lines += 1
                if lines % step == 0 { samples.append(sample(lines)) }
            }
        }
    }

    /// `VmRSS` of a running process, in bytes.
    private static func residentBytes(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
