import NIOCore

/// Cuts the byte stream into RESP replies with ``RESPParser``.
struct RESPDecoder: ByteToMessageDecoder {
    typealias InboundOut = RESPValue
    let parser: RESPParser

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let parsed = try buffer.withUnsafeReadableBytes { raw in try parser.parse(raw) }
        guard let (value, consumed) = parsed else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: consumed)
        context.fireChannelRead(wrapInboundOut(value))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }
}

/// One command on the wire and the promise its reply completes.
struct RedisCommand {
    var parts: [[UInt8]]
    var promise: EventLoopPromise<RESPValue>
}

/// Sends commands and matches replies to them in order (RESP replies come back in the order commands were
/// sent, so any number can be in flight: pipelining). A lost connection or a protocol error fails every
/// pending command and closes the channel.
final class RedisCommandHandler: ChannelDuplexHandler {
    typealias InboundIn = RESPValue
    typealias OutboundIn = RedisCommand
    typealias OutboundOut = ByteBuffer

    private var pending = CircularBuffer<EventLoopPromise<RESPValue>>()

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let command = unwrapOutboundIn(data)
        pending.append(command.promise)
        let bytes = RESPEncoder.encode(command.parts)
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let value = unwrapInboundIn(data)
        guard let promise = pending.popFirst() else {
            return fail(context: context, RedisError.protocolError("a reply arrived with no command waiting"))
        }
        promise.succeed(value)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context: context, (error as? RedisError) ?? .connectionFailed("\(error)"))
    }

    func channelInactive(context: ChannelHandlerContext) {
        failPending(.connectionFailed("the connection was closed"))
        context.fireChannelInactive()
    }

    private func fail(context: ChannelHandlerContext, _ error: RedisError) {
        failPending(error)
        context.close(promise: nil)
    }

    private func failPending(_ error: RedisError) {
        while let promise = pending.popFirst() { promise.fail(error) }
    }
}
