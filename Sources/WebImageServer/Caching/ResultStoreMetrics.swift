/// The names and dimensions of the result store's metrics (swift-metrics, Prometheus conventions like
/// ``SharedCacheMetrics``); every one has the dimension `tier`, `s3` for the S3 store. A value that fails its
/// checks is counted in `swiftwebimage_serve_corrupt_cache_values_total{tier="s3"}`.
///
/// | Label | Type | Dimensions | Counts or measures |
/// |---|---|---|---|
/// | `swiftwebimage_result_store_available` | gauge | `tier` | 1 while the circuit breaker is closed, else 0 |
/// | `swiftwebimage_result_store_hits_total` | counter | `tier` | lookups answered by the store |
/// | `swiftwebimage_result_store_misses_total` | counter | `tier` | lookups it had no whole, unexpired result for |
/// | `swiftwebimage_result_store_errors_total` | counter | `tier`, `reason` | lookups that failed (then a miss) |
/// | `swiftwebimage_result_store_writes_total` | counter | `tier` | results written |
/// | `swiftwebimage_result_store_write_failures_total` | counter | `tier`, `reason` | writes that failed or were dropped |
public enum ResultStoreMetrics {
    /// Gauge: 1 while the store is asked, 0 while its circuit breaker refuses calls after failures.
    public static let available = "swiftwebimage_result_store_available"
    /// Counter: lookups the store answered.
    public static let hits = "swiftwebimage_result_store_hits_total"
    /// Counter: lookups with no object, an expired one, or one that failed its checks.
    public static let misses = "swiftwebimage_result_store_misses_total"
    /// Counter, dimension ``Dimension/reason``: lookups that failed (a timeout, a lost connection, an error
    /// status, an open breaker); each went on to make the result.
    public static let errors = "swiftwebimage_result_store_errors_total"
    /// Counter: results written.
    public static let writes = "swiftwebimage_result_store_writes_total"
    /// Counter, dimension ``Dimension/reason``: writes that failed (also logged at `warning`) or were dropped
    /// because ``ResultStoreConfiguration/maxPendingWrites`` were under way.
    public static let writeFailures = "swiftwebimage_result_store_write_failures_total"

    /// The dimension names.
    public enum Dimension {
        /// The store's kind: `s3`.
        public static let tier = "tier"
        /// `timeout`, `connection`, `status` (an HTTP error status), `unavailable` (the breaker is open), or for
        /// writes also `queue_full`.
        public static let reason = "reason"
    }
}
