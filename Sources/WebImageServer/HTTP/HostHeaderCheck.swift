import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// RFC 9112 §3.2: a server answers 400 to an HTTP/1.1 request without a `Host` header field, and to any request
/// with more than one. Hummingbird's HTTP-types codec drops the version, so this sits right after NIO's
/// request decoder, where it is still known; a refused request never reaches the router and the connection
/// closes after the answer.
final class HostHeaderCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// True once a request was refused: what follows on this connection is dropped.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(let head) = unwrapInboundIn(data), let problem = Self.problem(head) else {
            context.fireChannelRead(data)
            return
        }
        refused = true
        let body = ByteBuffer(string: problem + "\n")
        let headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.readableBytes)"),
                                   ("Connection", "close"), ("Cache-Control", "no-store"),
                                   ("X-Content-Type-Options", "nosniff")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))),
                      promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    /// Why `head` must be refused, or nil.
    static func problem(_ head: HTTPRequestHead) -> String? {
        let hosts = head.headers["Host"].count
        if hosts > 1 { return "the request has more than one Host header" }
        if hosts == 0, head.version.major == 1, head.version.minor >= 1 { return "an HTTP/1.1 request needs a Host header" }
        return nil
    }
}

/// Hummingbird's HTTP/1 child channel with ``HostHeaderCheck`` added after NIO's request decoder.
struct HostCheckedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let inner: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(HostHeaderCheck(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 (`.http1(configuration:)`) that answers 400 to requests without a proper `Host` header.
    static func http1RequiringHost(idleTimeout: TimeAmount? = nil) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            HostCheckedHTTP1Channel(inner: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout)))
        }
    }
}
