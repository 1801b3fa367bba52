import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Synchronization

/// How far a connection's set-up got, so a call that runs out of time waiting for it can say what it waited for.
final class ConnectionSetup: Sendable {
    enum Stage: UInt8 {
        case connecting, tlsHandshake, login, ready
    }

    private let raw = Atomic<UInt8>(Stage.connecting.rawValue)

    var stage: Stage {
        get { Stage(rawValue: raw.load(ordering: .relaxed)) ?? .ready }
        set { raw.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// What waiting for this connection until the deadline ends in: a TLS handshake that never finishes is most
    /// often a plain-text server, which waits for a line that never comes.
    func timeout(place: String) -> RedisError {
        guard stage == .tlsHandshake else { return .timeout }
        return .connectionFailed("\(place): TLS handshake not finished within the deadline (a plain-text port? give redis://)")
    }
}

/// Makes one connection to a server: TCP, then for `rediss://` the TLS handshake (SNI and hostname checked), then
/// `AUTH` and `SELECT`. Every failure is a ``RedisError/connectionFailed(_:)`` naming the server (never the
/// password) and what to fix; the caller's deadline bounds it all.
struct RedisConnector: Sendable {
    let endpoint: RedisEndpoint
    let parser: RESPParser
    let deadline: Duration
    /// nil for a plain-text endpoint; a failure when the TLS settings cannot be used (each connection says why).
    let tls: Result<NIOSSLContext, RedisTLS.SetupError>?
    let group: any EventLoopGroup

    init(endpoint: RedisEndpoint, configuration: RedisClient.Configuration, group: any EventLoopGroup) {
        self.endpoint = endpoint
        self.group = group
        parser = configuration.parser
        deadline = configuration.deadline
        tls = endpoint.usesTLS ? Result { () throws(RedisTLS.SetupError) in try configuration.tls.makeContext() } : nil
    }

    /// The connection, set up within the deadline: past it the set-up fails (``ConnectionSetup/timeout(place:)``)
    /// and the channel is closed, so a server that never finishes a handshake holds nothing.
    func connect(_ setup: ConnectionSetup) -> EventLoopFuture<any Channel> {
        let place = endpoint.hostAndPortText, eventLoop = group.next()
        let connection = eventLoop.makePromise(of: (any Channel).self)
        let timer = eventLoop.scheduleTask(in: TimeAmount(deadline)) { connection.fail(setup.timeout(place: place)) }
        start(setup, on: eventLoop, closingWhenFailed: connection.futureResult).whenComplete { result in
            timer.cancel()
            connection.completeWith(result)
        }
        return connection.futureResult
    }

    private func start(_ setup: ConnectionSetup, on eventLoop: any EventLoop,
                       closingWhenFailed connection: EventLoopFuture<any Channel>) -> EventLoopFuture<any Channel> {
        let place = endpoint.hostAndPortText, endpoint = endpoint, parser = parser
        let context: NIOSSLContext?
        switch tls {
        case nil: context = nil
        case .success(let made)?: context = made
        case .failure(let error)?:
            return eventLoop.makeFailedFuture(RedisError.connectionFailed("\(place): TLS settings: \(error)"))
        }
        // No SNI for an address: the certificate is then checked against the address the socket reached.
        let serverName = endpoint.hostIsAddress ? nil : endpoint.host
        return ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(deadline))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let context {
                        try pipeline.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                        try pipeline.addHandler(TLSHandshakeWaiter(promise: channel.eventLoop.makePromise()))
                    }
                    try pipeline.addHandler(ByteToMessageHandler(RESPDecoder(parser: parser)))
                    try pipeline.addHandler(RedisCommandHandler(place: place, speaksTLS: context != nil))
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
            .flatMapErrorThrowing { error -> any Channel in
                throw RedisError.connectionFailed("\(place): \(error)")
            }
            .flatMap { channel -> EventLoopFuture<any Channel> in
                connection.whenFailure { _ in channel.close(promise: nil) }
                guard context != nil else { return channel.eventLoop.makeSucceededFuture(channel) }
                setup.stage = .tlsHandshake
                let handshake: EventLoopFuture<Void>
                do {
                    handshake = try channel.pipeline.syncOperations.handler(type: TLSHandshakeWaiter.self).done
                } catch {
                    handshake = channel.eventLoop.makeFailedFuture(error)
                }
                return handshake.map { channel }.flatMapErrorThrowing { error -> any Channel in
                    channel.close(promise: nil)
                    throw RedisError.connectionFailed("\(place): \(RedisTLSFailure.describe(error))")
                }
            }
            .flatMap { channel in
                setup.stage = .login
                return Self.login(channel, endpoint: endpoint)
            }
            .map { channel in
                setup.stage = .ready
                return channel
            }
    }

    /// `AUTH [user] password` and `SELECT` before the connection is used; an error reply closes it and fails the
    /// connection (a wrong password is a failed connection for the breaker, not a reply).
    private static func login(_ channel: any Channel, endpoint: RedisEndpoint) -> EventLoopFuture<any Channel> {
        var commands: [[[UInt8]]] = []
        if let password = endpoint.password {
            commands.append([Array("AUTH".utf8)] + (endpoint.username.map { [Array($0.utf8)] } ?? []) + [Array(password.utf8)])
        }
        if endpoint.database != 0 { commands.append([Array("SELECT".utf8), Array("\(endpoint.database)".utf8)]) }
        guard !commands.isEmpty else { return channel.eventLoop.makeSucceededFuture(channel) }
        let replies = commands.map { parts -> EventLoopFuture<RESPValue> in
            let promise = channel.eventLoop.makePromise(of: RESPValue.self)
            channel.write(RedisCommand(parts: parts, promise: promise), promise: nil)
            return promise.futureResult
        }
        channel.flush()
        let place = endpoint.hostAndPortText, names = commands.map { String(decoding: $0[0], as: UTF8.self) }
        return EventLoopFuture.whenAllSucceed(replies, on: channel.eventLoop).flatMapThrowing { values in
            for (name, value) in zip(names, values) {
                if case .error(let message) = value {
                    channel.close(promise: nil)
                    throw RedisError.connectionFailed("\(place): \(name) refused: \(message)")
                }
            }
            return channel
        }
    }
}

/// Completes ``done`` when the TLS handshake has finished, or fails it with what ended it: the connection is
/// used only once the server's certificate has been checked.
final class TLSHandshakeWaiter: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    private let promise: EventLoopPromise<Void>
    private var settled = false

    init(promise: EventLoopPromise<Void>) {
        self.promise = promise
    }

    var done: EventLoopFuture<Void> { promise.futureResult }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event { settle(nil) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        settle(error)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        settle(RedisError.connectionFailed("the server closed the connection during the TLS handshake"))
        context.fireChannelInactive()
    }

    private func settle(_ error: (any Error)?) {
        guard !settled else { return }
        settled = true
        if let error { promise.fail(error) } else { promise.succeed() }
    }
}
