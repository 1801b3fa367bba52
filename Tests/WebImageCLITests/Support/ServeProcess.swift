import Foundation
import TestSupport

/// A running `webimage serve --allow-private-sources` (unless `privateSources` is false) and `--allow-unsigned`
/// (unless `unsigned` is false) on free loopback ports, with a metrics listener and `environment` added to the test's; its stderr goes to a file.
final class ServeProcess: @unchecked Sendable {
    // Used by one test at a time.
    let process: SpawnedProcess
    let port: Int
    let metricsPort: Int
    private let directory: TemporaryDirectory

    private init(process: SpawnedProcess, port: Int, metricsPort: Int, directory: TemporaryDirectory) {
        self.process = process
        self.port = port
        self.metricsPort = metricsPort
        self.directory = directory
    }

    static func start(_ arguments: [String], environment: [String: String] = [:],
                      unsigned: Bool = true, privateSources: Bool = true) async throws -> ServeProcess {
        let directory = try TemporaryDirectory()
        let process = try SpawnedProcess(try CLIRunner.executable(),
                                         ["serve", "--bind", "127.0.0.1:0",
                                          "--cache-dir", directory.path("cache"), "--metrics-bind", "127.0.0.1:0"]
                                             + (privateSources ? ["--allow-private-sources"] : [])
                                             + (unsigned ? ["--allow-unsigned"] : []) + arguments,
                                         environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new },
                                         stdout: .pipe, stderr: .file(directory.url.appendingPathComponent("stderr")))
        let announced: ServeAnnouncement
        do {
            announced = try await ServeAnnouncement.read(process.standardOutput ?? FileHandle.nullDevice, metrics: true)
        } catch {
            process.terminate()
            throw error
        }
        let serve = ServeProcess(process: process, port: announced.port, metricsPort: announced.metricsPort ?? 0,
                                 directory: directory)
        return serve
    }

    /// `GET /metrics` on the metrics listener.
    func metricsText() throws -> String {
        let socket = try RawSocket(port: metricsPort)
        try socket.send("GET /metrics HTTP/1.1\r\nHost: metrics\r\nConnection: close\r\n\r\n")
        let answer = socket.readToEnd()
        guard answer.hasPrefix("HTTP/1.1 200") else { throw RawSocket.Failure(description: "metrics answered '\(answer.prefix(40))'") }
        return answer
    }

    /// Stops it with SIGTERM; its exit status.
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What it wrote on stderr.
    var stderr: String {
        (try? String(contentsOf: directory.url.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
    }
}
