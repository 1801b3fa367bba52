/// A Redis reply in RESP2: what the server sends back for a command.
public enum RESPValue: Sendable, Hashable {
    case simpleString(String)
    case error(String)
    case integer(Int)
    /// nil for RESP's null bulk string (`$-1`).
    case bulkString([UInt8]?)
    /// nil for RESP's null array (`*-1`).
    case array([RESPValue]?)
}

/// Why a Redis call failed.
public enum RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server sent bytes that are not RESP, or a reply over the parser's limits.
    case protocolError(String)
    /// The server answered with an error reply (`-ERR …`).
    case serverError(String)
    /// No connection could be made, or it was lost.
    case connectionFailed(String)
    /// No reply within the call's deadline.
    case timeout
    /// The circuit breaker is open after repeated failures: the call was not tried.
    case unavailable
    /// The reply did not have the type the command answers with.
    case unexpectedReply(String)

    public var description: String {
        switch self {
        case .protocolError(let message): "Redis protocol error: \(message)"
        case .serverError(let message): "Redis error reply: \(message)"
        case .connectionFailed(let message): "Redis connection failed: \(message)"
        case .timeout: "Redis did not answer within the deadline"
        case .unavailable: "Redis is marked unavailable after repeated failures"
        case .unexpectedReply(let message): "unexpected Redis reply: \(message)"
        }
    }
}
