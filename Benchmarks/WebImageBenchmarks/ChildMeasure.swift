import Foundation
import TestSupport
import WebImage

/// Memory measured in a child process: the benchmark re-runs itself as `--child MODE FILE`, the child does
/// one thing and prints its peak RSS growth, so no measurement's peak can hide another's.
enum ChildMeasure {
    /// One child run: peak RSS growth over the child's resident set after reading its file, and its run time.
    struct Sample {
        var growthMB: Double
        var seconds: Double
    }

    /// Runs `--child mode file` and reads the growth it prints.
    static func run(_ mode: String, _ file: URL) throws -> Sample {
        let start = ContinuousClock.now
        let process = try SpawnedProcess(URL(fileURLWithPath: CommandLine.arguments[0]), ["--child", mode, file.path],
                                         stdout: .pipe)
        let output = process.standardOutput?.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        guard process.termination == .exited(0),
              let value = Double(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw WebImageError.invalidOption("the \(mode) child failed (status \(process.terminationStatus))") }
        return Sample(growthMB: value,
                      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// In the child: reads `path`, runs `body` on its bytes and prints how far the peak resident set grew
    /// above the resident set before `body` (in MB).
    static func reportGrowth(path: String, _ body: (Data) throws -> Void) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let before = residentMB(field: "VmRSS")
        try body(data)
        print(residentMB(field: "VmHWM") - before)
    }

    /// A `/proc/self/status` memory field (`VmRSS`, `VmHWM`) in MB.
    static func residentMB(field: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        return kilobytes / 1024
    }
}
