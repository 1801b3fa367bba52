import Testing
@testable import WebImageRedis

@Suite struct RESPParserTests {
    static func parse(_ text: String, _ parser: RESPParser = RESPParser()) throws(RedisError) -> (value: RESPValue, consumed: Int)? {
        try parser.parse(Array(text.utf8))
    }

    @Test func everyReplyType() throws {
        #expect(try Self.parse("+OK\r\n")?.value == .simpleString("OK"))
        #expect(try Self.parse("-ERR wrong\r\n")?.value == .error("ERR wrong"))
        #expect(try Self.parse(":-42\r\n")?.value == .integer(-42))
        #expect(try Self.parse("$5\r\nhe\r\no\r\n")?.value == .bulkString(Array("he\r\no".utf8)))
        #expect(try Self.parse("$0\r\n\r\n")?.value == .bulkString([]))
        #expect(try Self.parse("$-1\r\n")?.value == .bulkString(nil))
        #expect(try Self.parse("*-1\r\n")?.value == .array(nil))
        let nested = try Self.parse("*2\r\n:1\r\n*1\r\n$1\r\nx\r\n+rest")
        #expect(nested?.value == .array([.integer(1), .array([.bulkString([UInt8(ascii: "x")])])]))
        #expect(nested?.consumed == 19)
    }

    @Test func incompleteRepliesWaitForMoreBytes() throws {
        for partial in ["", "+OK", "+OK\r", "$5\r\nhel", "$5\r\nhello\r", "*2\r\n:1\r\n", ":12"] {
            #expect(try Self.parse(partial) == nil, "\(partial)")
        }
    }

    @Test(arguments: ["!bad\r\n", "$-2\r\n", "*-5\r\n", "$abc\r\n", ":12x\r\n", "$3\r\nabcXY", "+OK\rX",
                      "$99999999999\r\n", "*5000\r\n", String(repeating: "*1\r\n", count: 20) + ":1\r\n"])
    func hostileRepliesAreProtocolErrors(text: String) {
        #expect(throws: RedisError.self) { try Self.parse(text) }
    }

    @Test func limitsAreCheckedBeforeAllocating() {
        let tight = RESPParser(maxBulkBytes: 10, maxArrayCount: 2, maxDepth: 1, maxLineBytes: 8)
        #expect(throws: RedisError.protocolError("bulk string of 11 bytes is over the 10-byte limit")) {
            try Self.parse("$11\r\n", tight)
        }
        #expect(throws: RedisError.protocolError("array of 3 elements is over the 2-element limit")) {
            try Self.parse("*3\r\n", tight)
        }
        #expect(throws: RedisError.self) { try Self.parse("+" + String(repeating: "a", count: 20), tight) }
        #expect(throws: RedisError.protocolError("arrays nested deeper than 1")) { try Self.parse("*1\r\n*1\r\n:1\r\n", tight) }
    }

    @Test func commandsAreArraysOfBulkStrings() {
        #expect(RESPEncoder.encode([Array("GET".utf8), Array("k".utf8)]) == Array("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n".utf8))
    }
}
