import Synchronization

/// When a request's work must be over: its arrival plus the processing timeout (imgproxy's `IMGPROXY_TIMEOUT`,
/// whose context deadline is set before the worker semaphore is taken), for the queue, the download and the
/// processing alike.
///
/// Work shared by several requests (``Singleflight``) runs until the latest of their deadlines: each request that
/// joins moves it later, never earlier, so no waiter's deadline cancels work another still waits for (each
/// waiter still gets its 503 at its own deadline).
final class WorkDeadline: Sendable {
    private let instant: Mutex<ContinuousClock.Instant>

    init(_ instant: ContinuousClock.Instant) {
        self.instant = Mutex(instant)
    }

    /// The deadline now (later once a waiter with a later one joined).
    var current: ContinuousClock.Instant { instant.withLock { $0 } }

    var hasPassed: Bool { ContinuousClock.now >= current }

    /// Moves the deadline to `later` when that is later.
    func extend(to later: ContinuousClock.Instant) {
        instant.withLock { $0 = max($0, later) }
    }

    /// Returns once the deadline, as extended meanwhile, has passed, or when the calling task is cancelled.
    func wait() async {
        while !Task.isCancelled {
            let target = current
            if ContinuousClock.now >= target { return }
            try? await Task.sleep(until: target, clock: .continuous)
        }
    }

    /// `work`'s result, or `timeout` once the deadline passes first (`work`'s task is then cancelled, as it is
    /// when the calling task is).
    func bound<Value: Sendable>(timeout: ProxyError,
                                _ work: @escaping @Sendable () async throws(ProxyError) -> Value)
        async throws(ProxyError) -> Value {
        let task = Task { () async -> Result<Value, ProxyError> in
            do throws(ProxyError) { return .success(try await work()) } catch { return .failure(error) }
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, ProxyError>, Never>) in
                let once = ResumeOnce(continuation)
                let timer = Task {
                    await self.wait()
                    guard !Task.isCancelled else { return }
                    task.cancel()
                    once.resume(returning: .failure(timeout))
                }
                Task {
                    let outcome = await task.value
                    timer.cancel()
                    once.resume(returning: outcome)
                }
            }
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }
}
