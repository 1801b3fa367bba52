import Foundation
import Glibc
import TestSupport

extension MeasuredRun {
    /// Runs `webimage serve arguments… --bind 127.0.0.1:0` under `PeakRSS`, calls `body` with the port once it
    /// listens, then stops it with SIGTERM and reports its peak memory over the whole run.
    static func serving(_ arguments: [String], timeout: Double = 120,
                        _ body: (Int) async throws -> Void) async throws -> Result {
        let scratch = try TemporaryDirectory()
        let report = scratch.path("report"), out = scratch.url.appendingPathComponent("stdout")
        let err = scratch.url.appendingPathComponent("stderr")
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = try CLIRunner.executable(named: "PeakRSS")
        process.arguments = [report, String(addressSpaceLimitKB), String(timeout), try CLIRunner.executable().path,
                             "serve", "--bind", "127.0.0.1:0"] + arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let (exit, exited) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.finish() }
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let port = try await listeningPort(in: out)
        try await body(port)
        // PeakRSS forked the server: signal that child, whose exit ends PeakRSS.
        let children = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(process.processIdentifier)/children",
                                    encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGTERM) }
        for await _ in exit {}
        let fields = (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: " ") ?? []
        guard fields.count == 4, let status = Int32(fields[0]), let signal = Int32(fields[1]), let peakKB = Double(fields[2]),
              let seconds = Double(fields[3].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "PeakRSS failed for serve \(arguments)")
        }
        return Result(status: status, signal: signal == 0 ? nil : signal,
                      stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self),
                      peakMB: peakKB / 1024, seconds: seconds)
    }

    /// The port of the `listening on http://127.0.0.1:PORT` line, waited for up to 60 s.
    private static func listeningPort(in file: URL) async throws -> Int {
        for _ in 0..<600 {
            let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://127.0.0.1:") }),
               let port = Int(line.dropFirst("listening on http://127.0.0.1:".count).prefix { $0.isNumber }) {
                return port
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "serve did not start listening")
    }
}
