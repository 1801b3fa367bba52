import Foundation
import NIOCore
import NIOPosix
import TestSupport
import WebImageRedis

/// A real `redis-server` on 127.0.0.1 and a free port, started for one test and stopped after it (no
/// persistence). Debian's `redis-server` package provides it; `make test` installs it.
public final class RedisServerProcess: Sendable {
    public let port: Int
    public let password: String?
    private let process: SpawnedProcess

    private init(port: Int, password: String?, process: SpawnedProcess) {
        self.port = port
        self.password = password
        self.process = process
    }

    public var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: port, password: password) }

    /// A new server on `port` (default a free one): a port a killed server used starts it again there.
    public static func start(password: String? = nil, port: Int? = nil) async throws -> RedisServerProcess {
        let port = try port ?? freePort()
        let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/redis-server"),
                                         ["--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                          "--protected-mode", "no", "--dir", FileManager.default.temporaryDirectory.path]
                                             + (password.map { ["--requirepass", $0] } ?? []))
        let server = RedisServerProcess(port: port, password: password, process: process)
        let client = RedisClient(endpoint: server.endpoint, configuration: .init(deadline: .seconds(1), breakerFailureThreshold: 1_000))
        for _ in 0..<200 {
            if (try? await client.ping()) != nil {
                await client.close()
                return server
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        await client.close()
        server.stop()
        throw RedisError.connectionFailed("redis-server did not start on port \(port)")
    }

    /// Kills the server (SIGKILL: nothing of it outlives the test).
    public func stop() {
        process.signal(SIGKILL)
        process.waitUntilExit()
    }

    /// A port nothing listens on right now (bound, read, released).
    public static func freePort() throws -> Int {
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).wait()
        defer { try? channel.close().wait() }
        guard let port = channel.localAddress?.port else { throw RedisError.connectionFailed("no free port") }
        return port
    }
}

/// A TCP server that accepts connections and answers every read with fixed bytes, or never answers:
/// a broken or hung Redis.
public final class FakeRedisServer: Sendable {
    let channel: any Channel
    public var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: channel.localAddress?.port ?? 0) }

    private init(channel: any Channel) {
        self.channel = channel
    }

    /// `reply` nil: read and never answer.
    public static func start(reply: [UInt8]?) async throws -> FakeRedisServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Answer(reply: reply)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return FakeRedisServer(channel: channel)
    }

    public func stop() async {
        try? await channel.close()
    }

    private final class Answer: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let reply: [UInt8]?

        init(reply: [UInt8]?) {
            self.reply = reply
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard let reply else { return }
            context.writeAndFlush(NIOAny(context.channel.allocator.buffer(bytes: reply)), promise: nil)
        }
    }
}
