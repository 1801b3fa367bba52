import Foundation
import NIOCore
import NIOPosix
import Synchronization
import WebImageRedis

/// A throwaway `redis-server` on 127.0.0.1 and a free port, without persistence, stopped by ``stop()``.
final class RedisServer: Sendable {
    let port: Int
    private let process: Mutex<Process?>

    private init(port: Int, process: sending Process) {
        self.port = port
        self.process = Mutex(process)
    }

    /// `redis-server` from PATH, or nil when there is none.
    static func executable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/redis-server" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the server and waits (up to 10 s) until it answers `PING`.
    static func start(executable: String) async throws -> RedisServer {
        let port = try await freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", FileManager.default.temporaryDirectory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = RedisServer(port: port, process: process)
        let client = RedisClient(endpoint: RedisEndpoint(host: "127.0.0.1", port: port),
                                 configuration: RedisClient.Configuration(deadline: .seconds(1),
                                                                          breakerFailureThreshold: 1_000))
        for _ in 0..<400 {
            if (try? await client.ping()) != nil {
                await client.close()
                return server
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        await client.close()
        server.stop()
        throw CheckFailed(description: "redis-server did not answer PING on 127.0.0.1:\(port) within 10 s")
    }

    /// Kills the server (SIGKILL: it keeps nothing, and a child may inherit a blocked SIGTERM) and waits for
    /// it; later calls do nothing.
    func stop() {
        guard let process = process.withLock({ process in defer { process = nil }; return process }),
              process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// A port nothing listens on right now (bound, read, released).
    private static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port
        try await channel.close()
        guard let port else { throw CheckFailed(description: "no free loopback port") }
        return port
    }
}
