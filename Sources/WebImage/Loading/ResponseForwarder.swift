import WebImageCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Passes one request's AsyncHTTPClient callbacks to a ``TransportResponseHandler``, on the request's event loop.
///
/// AsyncHTTPClient calls it serially; every part is taken in place (the handler copies what it keeps), so no
/// backpressure is needed. The end is reported from the task's result instead (see
/// ``HTTPClientTransport/start(_:handler:)``): a redirect past the limit fails the task without telling the delegate.
final class ResponseForwarder: HTTPClientResponseDelegate {
    typealias Response = Void

    private let handler: any TransportResponseHandler
    /// The URL whose response head came last: redirects move it to the URL that finally answers.
    private let responseURL: Mutex<URL>

    init(handler: any TransportResponseHandler, url: URL) {
        self.handler = handler
        responseURL = Mutex(url)
    }

    func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        responseURL.withLock { $0 = request.url }
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let url = responseURL.withLock { $0 }
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
