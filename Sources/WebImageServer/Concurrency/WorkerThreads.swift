import NIOPosix
import Synchronization

/// The threads decoding, transforming and encoding run on: CPU-bound, so never on the cooperative pool.
final class WorkerThreads: Sendable {
    private let pool: NIOThreadPool

    init(count: Int) {
        pool = NIOThreadPool(numberOfThreads: max(1, count))
        pool.start()
    }

    /// Runs `body` on a worker thread and returns its result, or throws `timeout` once `limit` has passed
    /// (the body cannot be interrupted: it runs on, and `onEnd` is called whenever it really ends).
    func run<Value: Sendable>(limit: Duration, timeout: ProxyError,
                              _ body: @escaping @Sendable () throws(ProxyError) -> Value,
                              onEnd: @escaping @Sendable () -> Void) async throws(ProxyError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, ProxyError>, Never>) in
            let once = ResumeOnce(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { once.resume(returning: .failure(timeout)) }
            }
            pool.submit { state in
                let outcome: Result<Value, ProxyError>
                if case .active = state {
                    do throws(ProxyError) { outcome = .success(try body()) } catch { outcome = .failure(error) }
                } else {
                    outcome = .failure(.unavailable("the service is shutting down"))
                }
                timer.cancel()
                onEnd()
                once.resume(returning: outcome)
            }
        }
        return try result.get()
    }

    func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}

/// A continuation that the first of several racing parties resumes; the others find it gone.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(returning value: Value) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
