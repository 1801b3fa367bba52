/// Reads RESP2 replies defensively: a hostile or broken server can make it fail with
/// ``RedisError/protocolError(_:)``, never crash it or make it allocate past its limits.
///
/// ``parse(_:)`` takes the bytes received so far and returns a whole reply with the bytes it used, or nil when
/// the reply is not complete yet; nothing is allocated for a declared length before it passes the limits.
public struct RESPParser: Sendable {
    /// The largest bulk string accepted. Default 64 MiB.
    public var maxBulkBytes: Int
    /// The most elements one array may declare. Default 1,024.
    public var maxArrayCount: Int
    /// The deepest nesting of arrays accepted. Default 8.
    public var maxDepth: Int
    /// The longest simple line (status, error, integer, length). Default 64 KiB.
    public var maxLineBytes: Int

    public init(maxBulkBytes: Int = 64 << 20, maxArrayCount: Int = 1_024, maxDepth: Int = 8, maxLineBytes: Int = 64 << 10) {
        self.maxBulkBytes = maxBulkBytes
        self.maxArrayCount = maxArrayCount
        self.maxDepth = maxDepth
        self.maxLineBytes = maxLineBytes
    }

    /// One reply from the start of `bytes` and the number of bytes it took; nil when more bytes are needed.
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(RedisError) -> (value: RESPValue, consumed: Int)? {
        var index = 0
        guard let value = try parseValue(bytes, &index, depth: 0) else { return nil }
        return (value, index)
    }

    /// ``parse(_:)`` over an array.
    public func parse(_ bytes: [UInt8]) throws(RedisError) -> (value: RESPValue, consumed: Int)? {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(RedisError) in try parse(raw) } }
        return try result.get()
    }

    private func parseValue(_ bytes: UnsafeRawBufferPointer, _ index: inout Int, depth: Int) throws(RedisError) -> RESPValue? {
        guard index < bytes.count else { return nil }
        let type = bytes[index]
        var cursor = index + 1
        guard let line = try readLine(bytes, &cursor) else { return nil }
        let value: RESPValue
        switch type {
        case UInt8(ascii: "+"): value = .simpleString(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: "-"): value = .error(String(decoding: line, as: UTF8.self))
        case UInt8(ascii: ":"): value = .integer(try integer(line))
        case UInt8(ascii: "$"):
            let length = try integer(line)
            if length == -1 {
                value = .bulkString(nil)
            } else {
                guard length >= 0 else { throw .protocolError("negative bulk string length \(length)") }
                guard length <= maxBulkBytes else {
                    throw .protocolError("bulk string of \(length) bytes is over the \(maxBulkBytes)-byte limit")
                }
                guard bytes.count - cursor >= length + 2 else { return nil }
                guard bytes[cursor + length] == UInt8(ascii: "\r"), bytes[cursor + length + 1] == UInt8(ascii: "\n") else {
                    throw .protocolError("bulk string not followed by CRLF")
                }
                value = .bulkString(Array(UnsafeRawBufferPointer(rebasing: bytes[cursor..<cursor + length])))
                cursor += length + 2
            }
        case UInt8(ascii: "*"):
            let count = try integer(line)
            if count == -1 {
                value = .array(nil)
            } else {
                guard count >= 0 else { throw .protocolError("negative array length \(count)") }
                guard count <= maxArrayCount else {
                    throw .protocolError("array of \(count) elements is over the \(maxArrayCount)-element limit")
                }
                guard depth < maxDepth else { throw .protocolError("arrays nested deeper than \(maxDepth)") }
                var elements: [RESPValue] = []
                for _ in 0..<count {
                    guard let element = try parseValue(bytes, &cursor, depth: depth + 1) else { return nil }
                    elements.append(element)
                }
                value = .array(elements)
            }
        default:
            throw .protocolError("unknown reply type byte \(type)")
        }
        index = cursor
        return value
    }

    /// The bytes up to the next CRLF (the cursor moves past it); nil when no CRLF has arrived yet.
    private func readLine(_ bytes: UnsafeRawBufferPointer, _ cursor: inout Int) throws(RedisError) -> Slice<UnsafeRawBufferPointer>? {
        var end = cursor
        while end < bytes.count, bytes[end] != UInt8(ascii: "\r") {
            end += 1
            guard end - cursor <= maxLineBytes else { throw .protocolError("line longer than \(maxLineBytes) bytes") }
        }
        guard end + 1 < bytes.count else { return nil }
        guard bytes[end + 1] == UInt8(ascii: "\n") else { throw .protocolError("CR not followed by LF") }
        let line = bytes[cursor..<end]
        cursor = end + 2
        return line
    }

    private func integer(_ line: Slice<UnsafeRawBufferPointer>) throws(RedisError) -> Int {
        guard let value = Int(String(decoding: line, as: UTF8.self)) else {
            throw .protocolError("'\(String(decoding: line.prefix(32), as: UTF8.self))' is not an integer")
        }
        return value
    }
}

/// Writes commands as RESP arrays of bulk strings.
public enum RESPEncoder {
    /// `command` (name first, then its arguments) in RESP.
    public static func encode(_ command: [[UInt8]]) -> [UInt8] {
        var out = Array("*\(command.count)\r\n".utf8)
        for part in command {
            out += Array("$\(part.count)\r\n".utf8)
            out += part
            out += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        }
        return out
    }
}
