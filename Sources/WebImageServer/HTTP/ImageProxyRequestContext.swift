import Hummingbird
import NIOCore

/// A request context that also carries the connection, so the service notices a client that goes away
/// while it waits and stops work nobody else waits for. Apps mounting the proxy with another context still
/// work; they just find out about a gone client only when the answer is written.
public struct ImageProxyRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's connection.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
