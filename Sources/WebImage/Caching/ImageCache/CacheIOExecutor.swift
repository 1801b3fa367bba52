import Dispatch

/// The serial queue a cache does its file I/O, encoding and disk-hit decoding on.
///
/// File I/O and decoding block a thread, so they must stay off Swift's cooperative pool; one serial
/// Dispatch queue per cache bounds them to a single thread and keeps every disk operation of the cache in
/// submission order (a store followed by a query of the same key always finds it), like SDWebImage's
/// `ioQueue`. `async` work reaches it through a continuation.
final class CacheIOExecutor: Sendable {
    private let queue: DispatchQueue
    private let marker = DispatchSpecificKey<Bool>()

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
        queue.setSpecific(key: marker, value: true)
    }

    /// Whether the caller is already running on this executor.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    /// Runs `work` later, in order after everything already submitted.
    func submit(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Runs `work` in order and waits for it on the caller's thread (inline when already on the executor,
    /// so a completion that queries synchronously cannot deadlock).
    func sync<T>(_ work: () throws -> T) rethrows -> T {
        if isCurrent { return try work() }
        return try queue.sync(execute: work)
    }

    /// Runs `work` in order and suspends (without holding a pool thread) until it finishes.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// A repeating timer firing `work` on the executor every `interval` seconds; cancel it to stop.
    func makeTimer(interval: Double, _ work: @escaping @Sendable () -> Void) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(Int(min(interval * 100, 60_000))))
        timer.setEventHandler(handler: work)
        timer.resume()
        return timer
    }
}
