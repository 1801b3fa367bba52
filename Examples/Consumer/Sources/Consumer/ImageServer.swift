import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Serves one PNG at every path on 127.0.0.1, on a port the system picks.
struct ImageServer {
    let channel: any Channel
    let port: Int

    static func start(serving body: Data) async throws -> ImageServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(body: body))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return ImageServer(channel: channel, port: channel.localAddress?.port ?? 0)
    }

    final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let body: Data

        init(body: Data) {
            self.body = body
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            let head = HTTPResponseHead(version: .http1_1, status: .ok,
                                        headers: ["Content-Type": "image/png", "Content-Length": "\(body.count)"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
