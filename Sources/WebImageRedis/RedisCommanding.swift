/// What the shared cache needs from a Redis client: pipelined commands, and the few it sends.
///
/// ``RedisClient`` is the built-in implementation; a maintained client can take its place by conforming.
public protocol RedisCommanding: Sendable {
    /// Sends the commands (each a name and its arguments) in one pipeline and returns their replies in
    /// order; a failed call throws, an error reply comes back as ``RESPValue/error(_:)``.
    func send(_ commands: [[[UInt8]]]) async throws(RedisError) -> [RESPValue]

    /// Whether calls go out (false while a circuit breaker refuses them). Default true.
    var isAvailable: Bool { get }

    /// Why calls are refused: the failure that stopped them; nil while they go out. Default nil.
    var failure: RedisError? { get }

    /// Closes the connections; later calls fail. Default: nothing to close.
    func close() async
}

extension RedisCommanding {
    public var isAvailable: Bool { true }

    public var failure: RedisError? { nil }

    public func close() async {}

    /// One command's reply; an error reply throws ``RedisError/serverError(_:)``.
    public func command(_ parts: [String]) async throws(RedisError) -> RESPValue {
        try await command(parts.map { Array($0.utf8) })
    }

    /// One command (byte arguments) and its reply; an error reply throws ``RedisError/serverError(_:)``.
    public func command(_ parts: [[UInt8]]) async throws(RedisError) -> RESPValue {
        let replies = try await send([parts])
        guard let reply = replies.first else { throw .unexpectedReply("no reply") }
        if case .error(let message) = reply { throw .serverError(message) }
        return reply
    }

    /// `GET`: the value, or nil when the key does not exist.
    public func get(_ key: String) async throws(RedisError) -> [UInt8]? {
        switch try await command(["GET", key]) {
        case .bulkString(let value): return value
        case let other: throw .unexpectedReply("GET answered \(other)")
        }
    }

    /// `SET key value [PX milliseconds]`.
    public func set(_ key: String, value: [UInt8], expiry: Duration? = nil) async throws(RedisError) {
        var parts = [Array("SET".utf8), Array(key.utf8), value]
        if let expiry {
            let milliseconds = max(1, expiry.components.seconds * 1_000 + expiry.components.attoseconds / 1_000_000_000_000_000)
            parts += [Array("PX".utf8), Array("\(milliseconds)".utf8)]
        }
        guard case .simpleString("OK") = try await command(parts) else { throw .unexpectedReply("SET did not answer OK") }
    }

    /// `DEL`: how many keys were removed.
    @discardableResult
    public func delete(_ keys: [String]) async throws(RedisError) -> Int {
        switch try await command(["DEL"] + keys) {
        case .integer(let count): return count
        case let other: throw .unexpectedReply("DEL answered \(other)")
        }
    }

    /// `PING`.
    public func ping() async throws(RedisError) {
        guard case .simpleString("PONG") = try await command(["PING"]) else { throw .unexpectedReply("PING did not answer PONG") }
    }
}
