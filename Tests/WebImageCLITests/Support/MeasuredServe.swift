import Foundation
import Glibc
import TestSupport

extension MeasuredRun {
    /// Runs `webimage serve arguments… --bind 127.0.0.1:0` under `PeakRSS`, calls `body` with the port once it
    /// listens, then stops it with SIGTERM and reports its peak memory over the whole run.
    static func serving(_ arguments: [String], timeout: Double = 120,
                        _ body: (Int) async throws -> Void) async throws -> Result {
        let launch = try Launch(["serve", "--bind", "127.0.0.1:0"] + arguments, timeout: timeout)
        let process = launch.process
        defer { process.terminate() }
        let port = try await listeningPort(in: launch.stdout)
        try await body(port)
        // PeakRSS forked the server: signal that child, whose exit ends PeakRSS.
        let pid = process.pid
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGTERM) }
        await process.exited()
        return try launch.result(["serve"] + arguments)
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
