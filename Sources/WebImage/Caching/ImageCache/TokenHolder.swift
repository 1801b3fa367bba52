import Synchronization

/// Bridges task cancellation to a ``CacheToken`` that may not exist yet when the task is cancelled.
final class TokenHolder: Sendable {
    private let state = Mutex<(token: CacheToken?, isCancelled: Bool)>((nil, false))

    /// Keeps the token; cancels it at once if the task was cancelled before it existed.
    func hold(_ token: CacheToken) {
        let cancelNow = state.withLock { state -> Bool in
            state.token = token
            return state.isCancelled
        }
        if cancelNow { token.cancel() }
    }

    func cancel() {
        let token = state.withLock { state -> CacheToken? in
            state.isCancelled = true
            return state.token
        }
        token?.cancel()
    }
}
