import NIOCore
import NIOPosix
import Synchronization
import Tracing

/// A small Redis client over SwiftNIO: a fixed set of pooled connections to one server, RESP2, pipelining,
/// a deadline on every call and a circuit breaker.
///
/// Behind ``RedisCommanding`` so a maintained client can replace it. Connections are made on first use
/// (TLS for `rediss://`, then `AUTH` and `SELECT` as the endpoint asks) and again after they
/// are lost; the deadline covers the connection's set-up too, and a call that misses it closes its connection, so
/// a hung server cannot pile up waiting replies. A connection that cannot be set up (wrong CA, expired
/// certificate, wrong password, TLS on one side only) is a failure for the breaker like a dead server.
public final class RedisClient: RedisCommanding {
    /// How the client talks to its server.
    public struct Configuration: Sendable {
        /// Connections kept to the server, used in turn. Default 2.
        public var connections: Int
        /// The most a call may take, connecting included. Default 50 ms.
        public var deadline: Duration
        /// Failures in a row before calls are refused for ``breakerOpenDuration``. Default 3.
        public var breakerFailureThreshold: Int
        /// How long calls are refused once the breaker opens. Default 5 s.
        public var breakerOpenDuration: Duration
        /// Limits on what the server may send. Default ``RESPParser/init(maxBulkBytes:maxArrayCount:maxDepth:maxLineBytes:)``'s.
        public var parser: RESPParser
        /// How a `rediss://` server is checked and this client shown to it; unused for `redis://`. Default: the
        /// system's trust store, no client certificate.
        public var tls: RedisTLS

        public init(connections: Int = 2, deadline: Duration = .milliseconds(50), breakerFailureThreshold: Int = 3,
                    breakerOpenDuration: Duration = .seconds(5), parser: RESPParser = RESPParser(), tls: RedisTLS = RedisTLS()) {
            self.connections = max(1, connections)
            self.deadline = deadline
            self.breakerFailureThreshold = breakerFailureThreshold
            self.breakerOpenDuration = breakerOpenDuration
            self.parser = parser
            self.tls = tls
        }
    }

    public let endpoint: RedisEndpoint
    public let configuration: Configuration
    private let connector: RedisConnector
    /// The tracer bootstrapped when the client was made; nil: the no-op one, and calls make no span at all.
    private let tracer: (any Tracer)?
    /// The pooled connections, the next slot to use, the breaker, whether ``close()`` ran, the connection
    /// whose loss the breaker last counted, and the failure it last counted.
    private let state: Mutex<(slots: [Pooled?], next: Int, breaker: CircuitBreaker, closed: Bool,
                              lastFailed: EventLoopFuture<any Channel>?, failure: RedisError?)>

    /// A client of `endpoint`; the TLS settings' files are read here (when they cannot be used, every call fails
    /// saying why: ``RedisTLS/check()`` finds that out first).
    public init(endpoint: RedisEndpoint, configuration: Configuration = Configuration(),
                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.endpoint = endpoint
        self.configuration = configuration
        connector = RedisConnector(endpoint: endpoint, configuration: configuration, group: group)
        tracer = InstrumentationSystem.tracer is NoOpTracer ? nil : InstrumentationSystem.tracer
        state = Mutex((Array(repeating: nil, count: configuration.connections), 0,
                       CircuitBreaker(failureThreshold: configuration.breakerFailureThreshold,
                                      openDuration: configuration.breakerOpenDuration), false, nil, nil))
    }

    /// Whether the breaker is refusing calls after repeated failures.
    public var isAvailable: Bool { state.withLock { !$0.breaker.isOpen } }

    /// The failure that opened the breaker; nil while it is closed.
    public var failure: RedisError? { state.withLock { $0.breaker.isOpen ? $0.failure : nil } }

    /// Each call is a client span (swift-distributed-tracing, when a tracer was bootstrapped before the client was
    /// made) named by its command (`GET`, `SET`, …), or `PIPELINE` for several, with OpenTelemetry's database
    /// attributes; keys, values and the password are never recorded.
    public func send(_ commands: [[[UInt8]]]) async throws(RedisError) -> [RESPValue] {
        try await send(commands, deadline: configuration.deadline)
    }

    /// ``send(_:)`` with a shorter deadline: what is left of a call's budget (a cluster's redirections).
    func send(_ commands: [[[UInt8]]], deadline: Duration) async throws(RedisError) -> [RESPValue] {
        guard !commands.isEmpty else { return [] }
        guard let tracer else { return try await call(commands, deadline: deadline) }
        let name = commands.count == 1 ? String(decoding: commands[0].first ?? [], as: UTF8.self).uppercased() : "PIPELINE"
        let span = tracer.startSpan(name, context: InstrumentationContext.current ?? .topLevel, ofKind: .client)
        defer { span.end() }
        if span.isRecording {
            span.attributes["db.system.name"] = "redis"
            span.attributes["db.operation.name"] = name
            if commands.count > 1 { span.attributes["db.operation.batch.size"] = commands.count }
            span.attributes["server.address"] = endpoint.host
            span.attributes["server.port"] = endpoint.port
            span.attributes["db.namespace"] = String(endpoint.database)
        }
        do {
            return try await call(commands, deadline: deadline)
        } catch {
            span.recordError(error)
            throw error
        }
    }

    private func call(_ commands: [[[UInt8]]], deadline: Duration) async throws(RedisError) -> [RESPValue] {
        let allowed = state.withLock { !$0.closed && $0.breaker.allowsCall() }
        guard allowed else { throw .unavailable }
        var (result, connection) = await withDeadline(commands, deadline: deadline)
        if case .success(let replies) = result, let refusal = replies.lazy.compactMap(Self.loginRefusal).first {
            result = .failure(.connectionFailed("\(endpoint.hostAndPortText): \(refusal)"))
        }
        state.withLock { state in
            switch result {
            case .success: state.breaker.recordSuccess()
            case .failure(.serverError): state.breaker.recordSuccess()
            case .failure(let error):
                // Calls pipelined on one connection fail together when it is lost (one slow reply closes it):
                // one failure for the breaker, not one per call in flight.
                guard state.lastFailed !== connection else { return }
                state.lastFailed = connection
                state.failure = error
                state.breaker.recordFailure()
            }
        }
        return try result.get()
    }

    /// An error reply that says the connection is not logged in as it should be (`NOAUTH`: a password is needed;
    /// `WRONGPASS`): a setting to fix, failing every call, so a failure for the breaker rather than a reply.
    private static func loginRefusal(_ reply: RESPValue) -> String? {
        guard case .error(let message) = reply, message.hasPrefix("NOAUTH") || message.hasPrefix("WRONGPASS") else {
            return nil
        }
        return message
    }

    /// Closes every connection; later calls fail with ``RedisError/unavailable``.
    public func close() async {
        let slots = state.withLock { state in
            state.closed = true
            defer { state.slots = state.slots.map { _ in nil } }
            return state.slots.compactMap { $0 }
        }
        for slot in slots { try? await slot.channel.get().close() }
    }

    /// Runs the commands on a pooled connection, failing at the deadline (with ``RedisError/timeout``, or with
    /// what the connection's set-up was stuck at); also answers the connection used.
    private func withDeadline(_ commands: [[[UInt8]]], deadline: Duration)
        async -> (Result<[RESPValue], RedisError>, EventLoopFuture<any Channel>) {
        let (index, pooled) = connection()
        let channelFuture = pooled.channel, eventLoop = channelFuture.eventLoop
        let outcome = eventLoop.makePromise(of: [RESPValue].self)
        let place = endpoint.hostAndPortText
        let timeout = eventLoop.scheduleTask(in: TimeAmount(deadline)) {
            outcome.fail(pooled.setup.timeout(place: place))
            self.discard(index, channelFuture)
        }
        channelFuture.flatMap { channel -> EventLoopFuture<[RESPValue]> in
            let replies = commands.map { parts -> EventLoopFuture<RESPValue> in
                let promise = eventLoop.makePromise(of: RESPValue.self)
                channel.write(RedisCommand(parts: parts, promise: promise), promise: nil)
                return promise.futureResult
            }
            channel.flush()
            return EventLoopFuture.whenAllSucceed(replies, on: eventLoop)
        }.whenComplete { result in
            timeout.cancel()
            outcome.completeWith(result)
        }
        do {
            return (.success(try await outcome.futureResult.get()), channelFuture)
        } catch let error as RedisError {
            return (.failure(error), channelFuture)
        } catch {
            return (.failure(.connectionFailed("\(place): \(error)")), channelFuture)
        }
    }

    /// A connection of the pool and how far its set-up got.
    private struct Pooled: Sendable {
        let channel: EventLoopFuture<any Channel>
        let setup: ConnectionSetup
    }

    /// The next slot's connection, connecting when it has none.
    private func connection() -> (Int, Pooled) {
        let (index, pooled, isNew) = state.withLock { state -> (Int, Pooled, Bool) in
            let index = state.next % state.slots.count
            state.next &+= 1
            if let existing = state.slots[index] { return (index, existing, false) }
            let setup = ConnectionSetup()
            let pooled = Pooled(channel: connector.connect(setup), setup: setup)
            state.slots[index] = pooled
            return (index, pooled, true)
        }
        guard isNew else { return (index, pooled) }
        let future = pooled.channel
        // Registered outside the lock: a callback that runs at once must be able to take it.
        future.whenComplete { [weak self] result in
            switch result {
            case .success(let channel):
                channel.closeFuture.whenComplete { [weak self] _ in self?.discard(index, future) }
            case .failure:
                self?.discard(index, future)
            }
        }
        return (index, pooled)
    }

    /// Forgets slot `index`'s connection if it is still `future`, and closes it.
    private func discard(_ index: Int, _ future: EventLoopFuture<any Channel>) {
        let removed = state.withLock { state -> Bool in
            guard let current = state.slots[index], current.channel === future else { return false }
            state.slots[index] = nil
            return true
        }
        if removed { future.whenSuccess { $0.close(promise: nil) } }
    }
}
