import Foundation
import NIOCore
import NIOHTTP1

/// The per-connection handler: records each request, then answers it as its ``TestResponse`` says.
final class TestServerHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: @Sendable () -> TestHTTPServer?
    private var head: HTTPRequestHead?
    private var body = Data()

    init(server: @escaping @Sendable () -> TestHTTPServer?) {
        self.server = server
    }

    func channelActive(context: ChannelHandlerContext) {
        server()?.connectionOpened(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        server()?.connectionClosed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(let part):
            // Kept for tests that read what clients post (an OTLP exporter's spans); bounded like the test itself.
            if body.count < 16 << 20 { body.append(contentsOf: part.readableBytesView) }
        case .end:
            guard let head, let server = server() else { return }
            self.head = nil
            let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
            let request = RecordedRequest(method: head.method.rawValue, path: path, uri: head.uri,
                                          headers: head.headers.map { ($0.name, $0.value) }, body: body)
            body = Data()
            let response = server.record(request).resolved(for: request)
            let isHead = head.method == .HEAD
            guard let gate = response.gate else {
                answer(response, isHead: isHead, context: context)
                return
            }
            let eventLoop = context.eventLoop
            let held = NIOLoopBound((handler: self, context: context), eventLoop: eventLoop)
            gate.whenOpen {
                eventLoop.execute { held.value.handler.answer(response, isHead: isHead, context: held.value.context) }
            }
        }
    }

    /// Answers after the response's delay, if any.
    private func answer(_ response: TestResponse, isHead: Bool, context: ChannelHandlerContext) {
        guard response.delay > .zero else {
            respond(response, isHead: isHead, context: context)
            return
        }
        _ = context.eventLoop.assumeIsolated().scheduleTask(in: Self.timeAmount(response.delay)) {
            self.respond(response, isHead: isHead, context: context)
        }
    }

    private func respond(_ response: TestResponse, isHead: Bool, context: ChannelHandlerContext) {
        switch response.behavior {
        case .hang:
            return
        case .reset:
            if let provider = context.channel as? any SocketOptionProvider {
                provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
                    context.channel.close(promise: nil)
                }
            } else {
                context.close(promise: nil)
            }
            return
        case .normal, .drip, .truncate:
            break
        }
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        let hasBody = response.status != 304 && response.status != 204
        if response.chunked {
            headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        } else if hasBody {
            headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        guard hasBody, !isHead else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        switch response.behavior {
        case .drip(let chunkSize, let interval):
            context.flush()
            drip(response.body, from: 0, chunkSize: max(1, chunkSize), interval: interval, context: context)
        case .truncate(let bytes):
            let prefix = response.body.prefix(max(0, min(bytes, response.body.count - 1)))
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: prefix)))))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        default:
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    private func drip(_ body: Data, from offset: Int, chunkSize: Int, interval: Duration, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        let end = min(body.count, offset + chunkSize)
        let piece = body[body.startIndex + offset ..< body.startIndex + end]
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: piece)))), promise: nil)
        if end == body.count {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        _ = context.eventLoop.assumeIsolated().scheduleTask(in: Self.timeAmount(interval)) {
            self.drip(body, from: end, chunkSize: chunkSize, interval: interval, context: context)
        }
    }

    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
