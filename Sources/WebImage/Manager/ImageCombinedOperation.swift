import Dispatch
import Foundation
import Synchronization

/// A running manager load: its cache part and its loader part (SDWebImage's `SDWebImageCombinedOperation`).
///
/// ``cancel()`` stops both and delivers `cancelled` (2002) once; a cancelled load is never put on the
/// failed-URL list. Whatever races, the completion sees exactly one final delivery (plus, with
/// `refreshCached`, the cached image before it, and with `progressiveLoad`, partial images with
/// `finished == false`).
public final class ImageCombinedOperation: Sendable {
    /// The URL being loaded (nil when the URL given was invalid).
    public let url: URL?
    private let state: Mutex<CombinedOperationState>
    private let deliver: (@Sendable (ImageLoadOutcome) -> Void)?
    private let progressHandler: ImageManager.ProgressHandler?
    private let callbackQueue: DispatchQueue?
    /// Run once when the load ends, however it ends (event streams finish); `ended` once that happened.
    private let endHooks: Mutex<(ended: Bool, hooks: [@Sendable () -> Void])>

    init(url: URL?, callbackQueue: DispatchQueue?, progress: ImageManager.ProgressHandler?,
         deliver: (@Sendable (ImageLoadOutcome) -> Void)?) {
        self.url = url
        self.callbackQueue = callbackQueue
        self.progressHandler = progress
        self.deliver = deliver
        state = Mutex(CombinedOperationState())
        endHooks = Mutex((false, []))
    }

    /// An operation that already delivered (a synchronous memory hit, an invalid URL): nothing to cancel.
    init(completedWith url: URL?) {
        self.url = url
        callbackQueue = nil
        progressHandler = nil
        deliver = nil
        var finished = CombinedOperationState()
        _ = finished.finish()
        state = Mutex(finished)
        endHooks = Mutex((true, []))
    }

    /// Cancels the cache query and the download; the completion gets `cancelled` unless the load already ended.
    public func cancel() {
        guard let parts = state.withLock({ $0.cancel() }) else { return }
        parts.cacheToken?.cancel()
        parts.loaderToken?.cancel()
        send(.failure(.cancelled, url: url))
        ended()
    }

    /// Whether ``cancel()`` took effect before the load ended.
    public var isCancelled: Bool { state.withLock { $0.phase == .cancelled } }

    /// Whether the load is still under way.
    public var isRunning: Bool { state.withLock { $0.isRunning } }

    // MARK: - Driven by the manager

    /// Runs `body` when the load ends (at once if it already has).
    func onEnd(_ body: @escaping @Sendable () -> Void) {
        let alreadyEnded = endHooks.withLock { state in
            if !state.ended { state.hooks.append(body) }
            return state.ended
        }
        if alreadyEnded { body() }
    }

    func attach(cache token: CacheToken) {
        if !state.withLock({ $0.attach(cache: token) }) { token.cancel() }
    }

    func attach(loader token: any ImageLoadingToken) {
        if !state.withLock({ $0.attach(loader: token) }) { token.cancel() }
    }

    /// Delivers a non-final outcome (partial image, cached image before revalidation) while running.
    func deliverIntermediate(_ outcome: ImageLoadOutcome) {
        guard state.withLock({ $0.mayDeliverIntermediate() }) else { return }
        send(outcome)
    }

    /// Delivers the final outcome, once; dropped after a cancel.
    func finish(_ outcome: ImageLoadOutcome) {
        guard state.withLock({ $0.finish() }) else { return }
        send(outcome)
        ended()
    }

    /// Ends without a delivery (a 304 after the cached image was delivered).
    func finishSilently() {
        guard state.withLock({ $0.finish() }) else { return }
        ended()
    }

    func reportProgress(received: Int, expected: Int) {
        guard let progressHandler, let url, state.withLock({ $0.mayDeliverIntermediate() }) else { return }
        if let callbackQueue {
            callbackQueue.async { progressHandler(received, expected, url) }
        } else {
            progressHandler(received, expected, url)
        }
    }

    private func send(_ outcome: ImageLoadOutcome) {
        guard let deliver else { return }
        if let callbackQueue {
            callbackQueue.async { deliver(outcome) }
        } else {
            deliver(outcome)
        }
    }

    private func ended() {
        let hooks = endHooks.withLock { state in
            state.ended = true
            defer { state.hooks = [] }
            return state.hooks
        }
        for hook in hooks { hook() }
    }
}
