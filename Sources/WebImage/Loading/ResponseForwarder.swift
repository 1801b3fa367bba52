import WebImageCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Passes one request's AsyncHTTPClient callbacks to a ``TransportResponseHandler``, on the request's event loop.
///
/// AsyncHTTPClient calls it serially; every part is taken in place (the handler copies what it keeps), so no
/// backpressure is needed. The end is reported from the task's result instead (see
/// ``HTTPClientTransport/startHop(_:handler:)``), which covers every way a request ends. AsyncHTTPClient follows
/// no redirect itself: the URL that answers is the one asked for.
final class ResponseForwarder: HTTPClientResponseDelegate {
    typealias Response = Void

    private let handler: any TransportResponseHandler
    private let url: URL

    init(handler: any TransportResponseHandler, url: URL) {
        self.handler = handler
        self.url = url
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        handler.didReceive(TransportResponseHead(status: Int(head.status.code),
                                                 headers: head.headers.map { ($0.name, $0.value) }, url: url))
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        buffer.withUnsafeReadableBytes { handler.didReceive(bytes: $0) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}
}
