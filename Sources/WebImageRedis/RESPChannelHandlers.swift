import Foundation
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
    /// The server, `HOST:PORT`, named in the errors of a lost connection.
    private let place: String
    /// Whether the connection is TLS: a plain-text one closed before any reply may be a TLS port.
    private let speaksTLS: Bool
    private var answered = false

    init(place: String, speaksTLS: Bool) {
        self.place = place
        self.speaksTLS = speaksTLS
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let command = unwrapOutboundIn(data)
        pending.append(command.promise)
        let bytes = RESPEncoder.encode(command.parts)
        context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let value = unwrapInboundIn(data)
        answered = true
        guard let promise = pending.popFirst() else {
            return fail(context: context, RedisError.protocolError("a reply arrived with no command waiting"))
        }
        promise.succeed(value)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let error as RedisError: fail(context: context, error)
        case let error as IOError:
            fail(context: context, .connectionFailed(lost("the connection was lost (\(String(cString: strerror(error.errnoCode))))")))
        default: fail(context: context, .connectionFailed("\(place): \(RedisTLSFailure.describe(error))"))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failPending(.connectionFailed(lost("the connection was closed")))
        context.fireChannelInactive()
    }

    /// What a lost connection says: a plain-text connection a TLS server drops says nothing back (Redis resets it
    /// after the first bytes), so the likely cause is named.
    private func lost(_ what: String) -> String {
        guard !answered, !speaksTLS else { return "\(place): \(what)" }
        return "\(place): \(what) before any reply (a TLS port? give rediss://)"
    }

    private func fail(context: ChannelHandlerContext, _ error: RedisError) {
        failPending(error)
        context.close(promise: nil)
    }

    private func failPending(_ error: RedisError) {
        while let promise = pending.popFirst() { promise.fail(error) }
    }
}
