import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP/1.1 server on 127.0.0.1 and a random port, in-process, for tests, benchmarks and `webimage-demo`.
///
/// Register what each path answers with ``route(_:_:)`` (a fixed ``TestResponse``) or ``route(_:handler:)``
/// (computed per request); the server records every request (``requests(for:)``, ``requestCount(for:)``) so
/// tests can assert coalescing and headers. Unknown paths answer 404. Always ``shutdown()`` when done.
///
/// ```swift
/// let server = try await TestHTTPServer.start()
/// server.route("/a.png", TestResponse(body: pngBytes))
/// // … load server.url("/a.png") …
/// try await server.shutdown()
/// ```
public final class TestHTTPServer: Sendable {
    struct State {
        var routes: [String: @Sendable (RecordedRequest) -> TestResponse] = [:]
        var requests: [RecordedRequest] = []
        var connections: [ObjectIdentifier: any Channel] = [:]
        var isShutDown = false
    }

    /// The port the server listens on.
    public let port: Int
    private let serverChannel: any Channel
    let state: Mutex<State>

    private init(port: Int, serverChannel: any Channel) {
        self.port = port
        self.serverChannel = serverChannel
        self.state = Mutex(State())
    }

    /// Starts a server on 127.0.0.1 with a port the system picks. `firstHandler`, when given, is called for
    /// each accepted connection and its handler put first in the pipeline: a TLS server handler makes this an
    /// https origin (the server itself stays free of TLS dependencies).
    public static func start(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                             firstHandler: (@Sendable () throws -> any ChannelHandler)? = nil) async throws
        -> TestHTTPServer {
        let box = ServerBox()
        let channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let firstHandler { try channel.pipeline.syncOperations.addHandler(try firstHandler()) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(TestServerHandler(server: box.server))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try await channel.close()
            throw ChannelError.unknownLocalAddress
        }
        let server = TestHTTPServer(port: port, serverChannel: channel)
        box.set(server)
        return server
    }

    /// `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Answers `path` (without query) with `response` from now on.
    public func route(_ path: String, _ response: TestResponse) {
        route(path) { _ in response }
    }

    /// Answers `path` (without query) with whatever `handler` returns for each request.
    public func route(_ path: String, handler: @escaping @Sendable (RecordedRequest) -> TestResponse) {
        state.withLock { $0.routes[path] = handler }
    }

    /// Answers `path` with the bytes of `file` (read now) and its `Content-Type`, sent as `behavior` says.
    public func serveFile(_ path: String, from file: URL, contentType: String,
                          behavior: TestResponse.Behavior = .normal) throws {
        let body = try Data(contentsOf: file)
        route(path, TestResponse(headers: [("Content-Type", contentType)], body: body, behavior: behavior))
    }

    /// Every request received for `path`, in arrival order.
    public func requests(for path: String) -> [RecordedRequest] {
        state.withLock { $0.requests.filter { $0.path == path } }
    }

    /// How many requests arrived for `path`.
    public func requestCount(for path: String) -> Int {
        state.withLock { $0.requests.reduce(0) { $0 + ($1.path == path ? 1 : 0) } }
    }

    /// How many requests arrived in all.
    public var totalRequestCount: Int { state.withLock { $0.requests.count } }

    /// Stops listening and closes every open connection (hanging ones included).
    public func shutdown() async throws {
        let open = state.withLock { state in
            state.isShutDown = true
            return Array(state.connections.values)
        }
        for connection in open {
            connection.close(promise: nil)
        }
        try await serverChannel.close()
    }

    func record(_ request: RecordedRequest) -> TestResponse {
        state.withLock { state in
            state.requests.append(request)
            return state.routes[request.path]
        }.map { $0(request) } ?? TestResponse(status: 404, body: Data("not found".utf8))
    }

    func connectionOpened(_ channel: any Channel) {
        let accepted = state.withLock { state in
            if !state.isShutDown { state.connections[ObjectIdentifier(channel)] = channel }
            return !state.isShutDown
        }
        if !accepted { channel.close(promise: nil) }
    }

    func connectionClosed(_ channel: any Channel) {
        _ = state.withLock { $0.connections.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}

/// Lets the child-channel initializer reach the server object created after `bind` returns.
final class ServerBox: Sendable {
    private let value = Mutex<TestHTTPServer?>(nil)
    var server: @Sendable () -> TestHTTPServer? { { self.value.withLock { $0 } } }
    func set(_ server: TestHTTPServer) { value.withLock { $0 = server } }
}
