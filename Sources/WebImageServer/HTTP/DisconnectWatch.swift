import NIOCore
import Synchronization

/// Runs one request's work and cancels it as soon as the client closes its side of the connection.
///
/// A handler placed first in the connection's pipeline sees the end of input (or the connection's end)
/// before anything else; it is removed again when the answer is ready.
enum DisconnectWatch {
    static func run<Value: Sendable>(on channel: (any Channel)?,
                                     _ work: @escaping @Sendable () async -> Value) async -> Value {
        guard let channel else { return await work() }
        let task = Task { await work() }
        let watcher = Watcher { task.cancel() }
        try? await channel.pipeline.addHandler(watcher, position: .first).get()
        if !channel.isActive { task.cancel() }
        let value = await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
        try? await channel.pipeline.removeHandler(watcher).get()
        return value
    }

    private final class Watcher: ChannelInboundHandler, RemovableChannelHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let onClose: @Sendable () -> Void

        init(onClose: @escaping @Sendable () -> Void) {
            self.onClose = onClose
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .some(.inputClosed) = event as? ChannelEvent { onClose() }
            context.fireUserInboundEventTriggered(event)
        }

        func channelInactive(context: ChannelHandlerContext) {
            onClose()
            context.fireChannelInactive()
        }
    }
}
