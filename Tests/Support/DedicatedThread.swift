import Foundation

/// Runs blocking or long synchronous `body` (waiting on a child process, a 12 MP decode in a debug build) on a
/// thread of its own and awaits its result.
///
/// Swift Testing runs tests on the cooperative pool, which has one thread per core: a test that holds one for
/// seconds stalls every other test's awaits behind it. Return what the test should check and `#expect` it
/// after the `await`, where issues are attributed to the test.
public func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
