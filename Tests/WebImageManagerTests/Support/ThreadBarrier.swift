#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reusable barrier for threads (`pthread_barrier_t`): every one of `count` threads calling ``wait()`` is
/// released at the same moment, so what they do next starts as nearly together as the scheduler allows.
final class ThreadBarrier: @unchecked Sendable {
    // pthread's barrier is itself thread-safe; the pointer is only freed once no thread can use it.
    private let barrier = UnsafeMutablePointer<pthread_barrier_t>.allocate(capacity: 1)

    init(count: Int) {
        pthread_barrier_init(barrier, nil, UInt32(count))
    }

    deinit {
        pthread_barrier_destroy(barrier)
        barrier.deallocate()
    }

    func wait() {
        _ = pthread_barrier_wait(barrier)
    }
}
