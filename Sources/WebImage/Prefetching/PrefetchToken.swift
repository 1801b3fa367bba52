import Dispatch
import Foundation
import Logging
import Synchronization

/// One prefetch batch: cancel it alone with ``cancel()`` (SDWebImage's `SDWebImagePrefetchToken`).
public final class PrefetchToken: Sendable {
    /// The batch's URLs (nil for strings that did not parse).
    public let urls: [URL?]
    /// Held strongly while the batch runs (the prefetcher forgets the token when it finishes).
    private let prefetcher: ImagePrefetcher
    private let settings: ImagePrefetcher.Settings
    private let progress: ImagePrefetcher.ProgressHandler?
    private let completed: ImagePrefetcher.CompletionHandler?
    private let state: Mutex<PrefetchState>
    private let operations = Mutex<[Int: ImageCombinedOperation]>([:])
    /// Whether a thread is inside ``pump()``: a synchronous completion then leaves the starting to it.
    private let pumping = Mutex((active: false, again: false))
    private let finishHooks = Mutex<[@Sendable () -> Void]>([])

    init(urls: [URL?], prefetcher: ImagePrefetcher, settings: ImagePrefetcher.Settings,
         progress: ImagePrefetcher.ProgressHandler?, completed: ImagePrefetcher.CompletionHandler?) {
        self.urls = urls
        self.prefetcher = prefetcher
        self.settings = settings
        self.progress = progress
        self.completed = completed
        state = Mutex(PrefetchState(total: urls.count, maxConcurrent: settings.maxConcurrentPrefetchCount))
    }

    /// Stops the batch: running loads are cancelled, unstarted URLs skipped; the completion still runs once.
    public func cancel() {
        let unstarted = state.withLock { $0.cancel() }
        if unstarted > 0 {
            prefetcher.instruments.finished.increment(by: unstarted)
            prefetcher.instruments.skipped.increment(by: unstarted)
        }
        let running = operations.withLock { Array($0.values) }
        for operation in running { operation.cancel() }
        completeIfDone()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    func onFinish(_ hook: @escaping @Sendable () -> Void) {
        finishHooks.withLock { $0.append(hook) }
    }

    func start() {
        pump()
        completeIfDone()
    }

    /// Starts loads while slots are free; re-entrant calls (synchronous completions) just ask for another round.
    private func pump() {
        let enter = pumping.withLock { pumping -> Bool in
            if pumping.active {
                pumping.again = true
                return false
            }
            pumping.active = true
            return true
        }
        guard enter else { return }
        while true {
            while let index = state.withLock({ $0.claimNext() }) { startLoad(index) }
            let again = pumping.withLock { pumping -> Bool in
                if pumping.again {
                    pumping.again = false
                    return true
                }
                pumping.active = false
                return false
            }
            if !again { return }
        }
    }

    private func startLoad(_ index: Int) {
        let manager = prefetcher.manager
        var context = settings.context
        context.callbackQueue = nil
        let url = urls[index]
        let operation = manager.loadImage(with: url, options: settings.options, context: context, completed: {
            [self] image, _, _, _, finished, _ in
            guard finished else { return }
            loadEnded(index, url: url, image: image)
        })
        operations.withLock { if operation.isRunning { $0[index] = operation } }
    }

    private func loadEnded(_ index: Int, url: URL?, image: Image?) {
        _ = operations.withLock { $0.removeValue(forKey: index) }
        let counts = state.withLock { $0.record(gotImage: image != nil) }
        prefetcher.instruments.finished.increment()
        if image == nil { prefetcher.instruments.skipped.increment() }
        let total = urls.count
        callback {
            self.progress?(counts.finished, total)
            if let url {
                self.settings.delegate?.prefetcher(self.prefetcher, didPrefetch: url, image: image,
                                                   finished: counts.finished, total: total)
            }
        }
        pump()
        completeIfDone()
    }

    private func completeIfDone() {
        let counts: (Int, Int)? = state.withLock { state in
            state.claimCompletion() ? (state.finished, state.skipped) : nil
        }
        guard let (finished, skipped) = counts else { return }
        prefetcher.instruments.logger.debug("prefetch batch finished",
                                            metadata: ["finished": "\(finished)", "skipped": "\(skipped)",
                                                       "cancelled": "\(isCancelled)"])
        callback {
            self.completed?(finished, skipped)
            self.settings.delegate?.prefetcher(self.prefetcher, didFinishWithTotal: finished, skipped: skipped)
        }
        let hooks = finishHooks.withLock { hooks in
            defer { hooks = [] }
            return hooks
        }
        for hook in hooks { hook() }
    }

    private func callback(_ body: @escaping @Sendable () -> Void) {
        if let queue = settings.callbackQueue {
            queue.async(execute: body)
        } else {
            body()
        }
    }
}
