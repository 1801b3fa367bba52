import FuzzSupport
import WebImageRedis

/// Replies from a hostile or broken server: the parser may refuse them or wait for more, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    var offset = 0
    // Every reply in the input, as the channel handler reads a pipelined stream.
    while offset < bytes.count, let reply = try? parser.parse(UnsafeRawBufferPointer(rebasing: bytes[offset...])) {
        precondition(reply.consumed > 0 && reply.consumed <= bytes.count - offset, "consumed out of range")
        offset += reply.consumed
    }
    return 0
}

@main enum FuzzRESPParser {
    static func main() { runFuzzer(testOneInput) }
}

/// Small limits, so short inputs reach each limit's check.
private let parser = RESPParser(maxBulkBytes: 1 << 12, maxArrayCount: 64, maxDepth: 4, maxLineBytes: 256)
