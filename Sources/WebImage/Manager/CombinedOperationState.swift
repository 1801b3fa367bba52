/// The lifecycle of one manager load as a value: which parts are running, and who may deliver.
///
/// The operation calls these under its lock and acts on the returned actions outside it, so a cancel racing
/// a cache answer or a download completion resolves one way: exactly one final delivery, and tokens handed in
/// after a cancel are cancelled at once.
struct CombinedOperationState {
    enum Phase: Equatable {
        /// Cache query or download under way; intermediate deliveries allowed.
        case running
        /// The final delivery was claimed (or the load ended silently after a 304).
        case finished
        /// Cancelled before finishing; the cancellation was (or is being) delivered.
        case cancelled
    }

    private(set) var phase = Phase.running
    private var cacheToken: CacheToken?
    private var loaderToken: (any ImageLoadingToken)?

    /// What to stop when the caller cancels.
    struct Cancellation {
        var cacheToken: CacheToken?
        var loaderToken: (any ImageLoadingToken)?
    }

    var isRunning: Bool { phase == .running }

    /// Records the cache part; returns false when the load is already over and the token must be cancelled.
    mutating func attach(cache token: CacheToken) -> Bool {
        guard phase == .running else { return false }
        cacheToken = token
        return true
    }

    /// Records the loader part; returns false when the load is already over and the token must be cancelled.
    mutating func attach(loader token: any ImageLoadingToken) -> Bool {
        guard phase == .running else { return false }
        loaderToken = token
        return true
    }

    /// Claims an intermediate delivery (a partial image, progress, the cached image before revalidating).
    func mayDeliverIntermediate() -> Bool { phase == .running }

    /// Claims the final delivery; true exactly once, and never after a cancel.
    mutating func finish() -> Bool {
        guard phase == .running else { return false }
        phase = .finished
        cacheToken = nil
        loaderToken = nil
        return true
    }

    /// Cancels: nil when already over, else the parts to stop (the caller then delivers `cancelled`).
    mutating func cancel() -> Cancellation? {
        guard phase == .running else { return nil }
        phase = .cancelled
        defer {
            cacheToken = nil
            loaderToken = nil
        }
        return Cancellation(cacheToken: cacheToken, loaderToken: loaderToken)
    }
}
