import WebImageCore
import Foundation

/// Sends each request to the first of several transports that loads its URL (by scheme).
///
/// The downloader's default is `RoutingTransport([FileTransport(), HTTPClientTransport(…)])`, so `file://`
/// URLs go through the same download path as http(s) ones.
public struct RoutingTransport: ImageTransport {
    /// The transports, asked in order.
    public let transports: [any ImageTransport]

    public init(_ transports: [any ImageTransport]) {
        self.transports = transports
    }

    public func canLoad(_ url: URL) -> Bool {
        transports.contains { $0.canLoad(url) }
    }

    public func start(_ request: TransportRequest, handler: any TransportResponseHandler) -> any TransportTask {
        guard let transport = transports.first(where: { $0.canLoad(request.url) }) else {
            handler.didComplete(error: .invalidURL(request.url.absoluteString))
            return CompletedTransportTask()
        }
        return transport.start(request, handler: handler)
    }

    public func shutdown() async throws {
        for transport in transports {
            try await transport.shutdown()
        }
    }
}

/// A task that has already ended; cancelling it does nothing.
struct CompletedTransportTask: TransportTask {
    func cancel() {}
}
