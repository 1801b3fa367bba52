import Synchronization

/// Holds back the responses that carry it (``TestResponse/gate``) until ``open()``: a test can then act while
/// a request is known to be in flight (join a running download, cancel it) without guessing a delay.
///
/// The server keeps serving everything else meanwhile; nothing blocks an event loop.
public final class TestGate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [@Sendable () -> Void])>((false, []))

    public init() {}

    /// Lets every held and later response go.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter() }
    }

    /// Runs `body` once the gate is open (at once if it already is).
    func whenOpen(_ body: @escaping @Sendable () -> Void) {
        let isOpen = state.withLock { state in
            if !state.isOpen { state.waiters.append(body) }
            return state.isOpen
        }
        if isOpen { body() }
    }
}
