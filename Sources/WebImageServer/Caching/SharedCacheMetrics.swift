/// The names and dimensions of the shared tier's metrics (swift-metrics, Prometheus conventions like
/// `WebImageMetrics`).
///
/// | Label | Type | Dimensions | Counts or measures |
/// |---|---|---|---|
/// | `swiftwebimage_shared_cache_available` | gauge | – | 1 while every server's breaker is closed, else 0 |
/// | `swiftwebimage_shared_cache_hits_total` | counter | `kind` | lookups answered by the shared tier |
/// | `swiftwebimage_shared_cache_misses_total` | counter | `kind` | lookups it had no whole value for |
/// | `swiftwebimage_shared_cache_errors_total` | counter | `kind`, `reason` | lookups that failed (then a miss) |
/// | `swiftwebimage_shared_cache_writes_total` | counter | `kind` | values written |
/// | `swiftwebimage_shared_cache_write_failures_total` | counter | `kind`, `reason` | writes that failed or were dropped |
public enum SharedCacheMetrics {
    /// Gauge: 1 while the tier is used, 0 while a circuit breaker refuses calls after failures (the
    /// instance then works from its local tiers and the origin). Updated after every call.
    public static let available = "swiftwebimage_shared_cache_available"
    /// Counter, dimension ``Dimension/kind``: lookups the shared tier answered.
    public static let hits = "swiftwebimage_shared_cache_hits_total"
    /// Counter, dimension ``Dimension/kind``: lookups with no value, or a torn or foreign one.
    public static let misses = "swiftwebimage_shared_cache_misses_total"
    /// Counter, dimensions ``Dimension/kind`` and ``Dimension/reason``: lookups that failed (a timeout, a lost
    /// connection, a protocol error, an open breaker); each went on to the origin.
    public static let errors = "swiftwebimage_shared_cache_errors_total"
    /// Counter, dimension ``Dimension/kind``: values written.
    public static let writes = "swiftwebimage_shared_cache_writes_total"
    /// Counter, dimensions ``Dimension/kind`` and ``Dimension/reason``: writes that failed (also logged at
    /// `warning`) or were dropped because ``SharedCacheConfiguration/maxPendingWrites`` were under way.
    public static let writeFailures = "swiftwebimage_shared_cache_write_failures_total"

    /// The dimension names.
    public enum Dimension {
        /// `result` (a processed image) or `source` (an original).
        public static let kind = "kind"
        /// `timeout`, `connection`, `protocol`, `server`, `reply`, `unavailable` (the breaker is open), or for
        /// writes also `queue_full`.
        public static let reason = "reason"
    }
}
