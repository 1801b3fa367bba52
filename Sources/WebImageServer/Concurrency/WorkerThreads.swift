import NIOPosix
import Synchronization
import WebImage

/// The threads decoding, transforming and encoding run on: CPU-bound, so never on the cooperative pool.
package final class WorkerThreads: Sendable {
    /// Whether a body past its deadline is cancelled (always, but for the `deadline` benchmark's "before" side,
    /// which measures the service as it was: the body running on to its end).
    package static let cancelsWorkPastLimit = Atomic<Bool>(true)

    private let pool: NIOThreadPool

    init(count: Int) {
        pool = NIOThreadPool(numberOfThreads: max(1, count))
        pool.start()
    }

    /// Runs `body` on a worker thread and returns its result, or throws `timeout` once `deadline` has passed.
    ///
    /// At the deadline the body's ``WorkCancellation`` (bound to the worker thread while it runs) is cancelled
    /// too, as it is when the calling task is cancelled (everyone waiting for the work left): decoders, the
    /// resampler, filters and encoders poll it between rows, bands or frames, so the body ends soon after with
    /// ``WebImageError/cancelled`` (its result, if it still made one, is dropped) and `onEnd` frees the worker's
    /// slot. `onEnd` is called whenever the body really ends.
    func run<Value: Sendable>(until deadline: WorkDeadline, timeout: ProxyError,
                              _ body: @escaping @Sendable () throws(ProxyError) -> Value,
                              onEnd: @escaping @Sendable () -> Void) async throws(ProxyError) -> Value {
        // The token also reads the deadline itself: the timer below runs on the cooperative pool, which other
        // work can hold past the deadline, and the body must stop on time regardless.
        let cancellation = Self.cancelsWorkPastLimit.load(ordering: .relaxed)
            ? WorkCancellation(deadline: { deadline.current }) : WorkCancellation()
        // The request's trace follows its work onto the thread, so the stages there are noted on it.
        let trace = RequestTrace.current
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, ProxyError>, Never>) in
                let once = ResumeOnce(continuation)
                let timer = Task {
                    await deadline.wait()
                    guard !Task.isCancelled else { return }
                    if Self.cancelsWorkPastLimit.load(ordering: .relaxed) { cancellation.cancel() }
                    once.resume(returning: .failure(timeout))
                }
                pool.submit { state in
                    var outcome: Result<Value, ProxyError>
                    if case .active = state {
                        outcome = Self.run(body, under: cancellation, trace: trace)
                    } else {
                        outcome = .failure(.unavailable("the service is shutting down"))
                    }
                    // Past the deadline is a timeout even when the timer task has not run yet (a busy cooperative pool).
                    if cancellation.isCancelled || deadline.hasPassed { outcome = .failure(timeout) }
                    timer.cancel()
                    onEnd()
                    once.resume(returning: outcome)
                }
            }
        } onCancel: {
            if Self.cancelsWorkPastLimit.load(ordering: .relaxed) { cancellation.cancel() }
        }
        return try result.get()
    }

    /// `body` with `cancellation` as the thread's current token and `trace` as its request's.
    private static func run<Value>(_ body: () throws(ProxyError) -> Value, under cancellation: WorkCancellation,
                                   trace: RequestTrace?) -> Result<Value, ProxyError> {
        RequestTrace.$current.withValue(trace) {
            WorkCancellation.$current.withValue(cancellation) {
                do throws(ProxyError) { return .success(try body()) } catch { return .failure(error) }
            }
        }
    }

    func shutdown() async {
        try? await pool.shutdownGracefully()
    }
}
