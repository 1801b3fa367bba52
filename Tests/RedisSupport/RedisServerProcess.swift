import Foundation
import NIOCore
import NIOPosix
import TestSupport
import WebImageRedis

/// A real `redis-server` on 127.0.0.1 and a free port, started for one test and stopped after it (no
/// persistence). Debian's `redis-server` package provides it (7.0, built with TLS); `make test` installs it.
public final class RedisServerProcess: Sendable {
    public let port: Int
    public let password: String?
    /// Whether the port speaks TLS only.
    public let usesTLS: Bool
    private let process: SpawnedProcess

    private init(port: Int, password: String?, usesTLS: Bool, process: SpawnedProcess) {
        self.port = port
        self.password = password
        self.usesTLS = usesTLS
        self.process = process
    }

    /// 127.0.0.1, with the password and, for a TLS server, `rediss://`.
    public var endpoint: RedisEndpoint {
        RedisEndpoint(host: "127.0.0.1", port: port, password: password, usesTLS: usesTLS)
    }

    /// How a server speaks TLS: its certificate and key, the CA it checks clients against, and whether clients must
    /// show a certificate (`--tls-auth-clients yes`).
    public struct TLS: Sendable {
        public var certificateFile: String
        public var keyFile: String
        public var caFile: String
        public var requiresClientCertificate: Bool

        public init(certificateFile: String, keyFile: String, caFile: String, requiresClientCertificate: Bool = false) {
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.caFile = caFile
            self.requiresClientCertificate = requiresClientCertificate
        }

        /// The test CA's server certificate for `localhost` and 127.0.0.1.
        public static func valid(_ certificates: TestCertificates, requiresClientCertificate: Bool = false) -> TLS {
            TLS(certificateFile: certificates.serverCertificate, keyFile: certificates.serverKey,
                caFile: certificates.caFile, requiresClientCertificate: requiresClientCertificate)
        }
    }

    /// A new server on `port` (default a free one): a port a killed server used starts it again there. With `tls`,
    /// the port speaks TLS only; `arguments` are added to the command line (`--user alice on >pw ~* &* +@all`).
    /// Ready once its log says so; a free port another test took meanwhile (the server exits) is replaced.
    public static func start(password: String? = nil, port: Int? = nil, tls: TLS? = nil,
                             arguments: [String] = []) async throws -> RedisServerProcess {
        for _ in 0..<5 {
            let chosen = try port ?? freePort()
            if let server = try await launch(port: chosen, password: password, tls: tls, arguments: arguments) {
                return server
            }
            guard port == nil else { break }
        }
        throw RedisError.connectionFailed("redis-server did not start")
    }

    /// The server, or nil when it ended before it was ready.
    private static func launch(port: Int, password: String?, tls: TLS?,
                               arguments: [String]) async throws -> RedisServerProcess? {
        let listening = tls.map { tls in
            ["--port", "0", "--tls-port", "\(port)", "--tls-cert-file", tls.certificateFile, "--tls-key-file", tls.keyFile,
             "--tls-ca-cert-file", tls.caFile, "--tls-auth-clients", tls.requiresClientCertificate ? "yes" : "no"]
        } ?? ["--port", "\(port)"]
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("redis-\(port)-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/redis-server"),
                                         listening + ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                                                      "--protected-mode", "no", "--dir", FileManager.default.temporaryDirectory.path,
                                                      // A name no file has: the server starts empty even when another
                                                      // Redis left a dump.rdb in the temporary directory.
                                                      "--dbfilename", "redis-\(port)-\(UUID().uuidString).rdb"]
                                             + (password.map { ["--requirepass", $0] } ?? []) + arguments,
                                         stdout: .file(log))
        let server = RedisServerProcess(port: port, password: password, usesTLS: tls != nil, process: process)
        for _ in 0..<400 {
            guard process.isRunning else { return nil }
            if let text = try? String(contentsOf: log, encoding: .utf8), text.contains("Ready to accept connections") {
                return server
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        server.stop()
        throw RedisError.connectionFailed("redis-server did not start on port \(port)")
    }

    /// Whether the server still runs.
    public var isRunning: Bool { process.isRunning }

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
