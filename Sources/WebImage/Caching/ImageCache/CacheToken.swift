import Synchronization

/// The handle a callback-form cache operation returns: cancel it to stop waiting.
///
/// Cancelling runs the operation's completion at once with its "cancelled" answer (a query answers
/// `(nil, nil, .none)`), exactly once; a second cancel, or a cancel after the completion ran, does nothing.
/// Work not yet started is skipped; work already running finishes but its result is dropped.
///
/// Writing your own ``ImageCaching``: create the token with the cancelled answer, and deliver the real one
/// only when ``complete()`` returns true.
///
/// ```swift
/// let token = cache.queryImage(forKey: url.absoluteString) { image, data, type in … }
/// token.cancel()
/// ```
public final class CacheToken: Sendable {
    private let machine: Mutex<CompletionStateMachine>

    /// A pending token; `onCancel` delivers the cancelled answer to the caller's completion.
    public init(onCancel: @escaping @Sendable () -> Void) {
        machine = Mutex(CompletionStateMachine(onCancel: onCancel))
    }

    /// A token for an operation that already answered (synchronous memory hits, nil keys).
    public static func completed() -> CacheToken {
        let token = CacheToken(onCancel: {})
        _ = token.complete()
        return token
    }

    /// Cancels the operation; see the type's documentation.
    public func cancel() {
        let action = machine.withLock { $0.cancel() }
        guard case .deliverCancellation(let onCancel, let children) = action else { return }
        for child in children { child.cancel() }
        onCancel()
    }

    /// Whether ``cancel()`` took effect before the operation answered.
    public var isCancelled: Bool { machine.withLock { $0.isCancelled } }

    /// Whether the operation has answered or been cancelled.
    public var isFinished: Bool { machine.withLock { $0.isFinished } }

    /// Claims the right to deliver the real answer; false when cancelled (or already answered) — then drop it.
    public func complete() -> Bool {
        machine.withLock { $0.complete() }
    }

    /// Ties a sub-operation's token to this one: cancelling this cancels it (at once if already over).
    public func addChild(_ child: CacheToken) {
        if machine.withLock({ $0.addChild(child) }) == .cancelChild { child.cancel() }
    }
}
