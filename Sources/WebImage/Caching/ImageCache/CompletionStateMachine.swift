/// The life of one cache operation's completion: pending until it either completes or is cancelled, once.
///
/// A value type driven under the token's lock; each transition returns what the caller must do outside the
/// lock, so the completion can never run twice nor be lost (async-http-client's state-machine style).
struct CompletionStateMachine: Sendable {
    enum State: Sendable {
        /// Not answered yet; `onCancel` delivers the cancelled answer, `children` are cancelled with it.
        case pending(onCancel: @Sendable () -> Void, children: [CacheToken])
        case completed
        case cancelled
    }

    /// What cancelling asks the caller to do.
    enum CancelAction {
        /// Run the cancelled answer and cancel the sub-operations.
        case deliverCancellation(@Sendable () -> Void, children: [CacheToken])
        /// Already answered or already cancelled: nothing.
        case none
    }

    /// What adding a sub-operation asks the caller to do.
    enum ChildAction {
        case keep
        /// The operation is already over: cancel the child now.
        case cancelChild
    }

    private(set) var state: State

    init(onCancel: @escaping @Sendable () -> Void) {
        state = .pending(onCancel: onCancel, children: [])
    }

    /// Marks the operation answered; true when the caller may deliver its result (it was still pending).
    mutating func complete() -> Bool {
        guard case .pending = state else { return false }
        state = .completed
        return true
    }

    mutating func cancel() -> CancelAction {
        guard case .pending(let onCancel, let children) = state else { return .none }
        state = .cancelled
        return .deliverCancellation(onCancel, children: children)
    }

    mutating func addChild(_ child: CacheToken) -> ChildAction {
        switch state {
        case .pending(let onCancel, var children):
            children.append(child)
            state = .pending(onCancel: onCancel, children: children)
            return .keep
        case .completed, .cancelled:
            return .cancelChild
        }
    }

    var isCancelled: Bool {
        if case .cancelled = state { return true }
        return false
    }

    var isFinished: Bool {
        if case .pending = state { return false }
        return true
    }
}
