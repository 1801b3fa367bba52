import Foundation

extension ImageProxyConfiguration {
    /// How much work runs at once and how much may wait.
    public struct Concurrency: Sendable {
        /// Requests processed at once (download, decode, transform, encode). Default the number of cores.
        public var workers: Int
        /// Requests waiting for a worker; one more is refused at once with 429. Default 2 × ``workers`` (as
        /// given to the initializer).
        public var queueSize: Int
        /// The `Retry-After` sent with 429, in seconds. Default 1.
        public var retryAfterSeconds: Int

        public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount, queueSize: Int? = nil,
                    retryAfterSeconds: Int = 1) {
            self.workers = max(1, workers)
            self.queueSize = max(0, queueSize ?? 2 * max(1, workers))
            self.retryAfterSeconds = retryAfterSeconds
        }
    }
}
