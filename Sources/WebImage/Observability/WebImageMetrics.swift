/// The names and dimensions of every metric SwiftWebImage reports through swift-metrics: the one place to
/// look them up (dashboards, alerts) and the labels the components create their metrics with.
///
/// Each component (``ImageCache``, ``ImageDownloader``, ``ImageManager``, ``ImagePrefetcher``) creates its
/// metrics once, from the `MetricsFactory` it was given (default `MetricsSystem.factory`, read when its
/// configuration is made): bootstrap `MetricsSystem` before creating them, or pass a factory explicitly.
/// Without a backend every metric is swift-metrics' no-op. Names follow Prometheus conventions: counters end
/// in `_total`, timers (nanosecond precision, exported in seconds by Prometheus backends) in `_seconds`.
///
/// | Label | Type | Dimensions | Counts or measures |
/// |---|---|---|---|
/// | `swiftwebimage_cache_hits_total` | counter | `tier` | cache queries answered by memory or disk |
/// | `swiftwebimage_cache_misses_total` | counter | `tier` | queries a tier could not answer |
/// | `swiftwebimage_cache_stores_total` | counter | `tier` | images stored in memory; entries written to disk |
/// | `swiftwebimage_cache_evictions_total` | counter | `tier`, `reason` | entries removed by a limit or expiry |
/// | `swiftwebimage_disk_cache_bytes` | gauge | – | bytes the disk entries take, when known |
/// | `swiftwebimage_disk_cache_write_failures_total` | counter | – | disk writes that failed |
/// | `swiftwebimage_downloads_started_total` | counter | – | network tasks started (one per URL at a time) |
/// | `swiftwebimage_downloads_coalesced_total` | counter | – | callers that joined a running task |
/// | `swiftwebimage_downloads_failed_total` | counter | `code` | tasks (or refused requests) that failed |
/// | `swiftwebimage_download_received_bytes_total` | counter | – | body bytes received |
/// | `swiftwebimage_download_first_byte_seconds` | timer | – | start to response head |
/// | `swiftwebimage_download_duration_seconds` | timer | – | start to the end of the transfer |
/// | `swiftwebimage_decode_duration_seconds` | timer | `format` | successful full decodes |
/// | `swiftwebimage_encode_duration_seconds` | timer | `format` | successful encodes for the disk cache |
/// | `swiftwebimage_prefetch_finished_total` | counter | – | prefetched URLs dealt with (skipped included) |
/// | `swiftwebimage_prefetch_skipped_total` | counter | – | prefetched URLs that gave no image |
/// | `swiftwebimage_library_log_lines_total` | counter | `library` | lines the C libraries wrote (``LibraryLogs``) |
/// | `swiftwebimage_library_log_lines_dropped_total` | counter | `library` | those past the rate, not logged |
public enum WebImageMetrics {
    /// Counter, dimension ``Dimension/tier``: a query answered from that tier. The manager's synchronous
    /// memory lookup counts too; a disk query shared by concurrent callers counts once per caller.
    public static let cacheHits = "swiftwebimage_cache_hits_total"
    /// Counter, dimension ``Dimension/tier``: a query that tier could not answer (memory: no image, or one
    /// decoded with other options; disk: no entry or one that did not decode).
    public static let cacheMisses = "swiftwebimage_cache_misses_total"
    /// Counter, dimension ``Dimension/tier``: `storeImage` put an image in memory, or wrote an entry to disk.
    /// Disk hits written back to memory are not stores.
    public static let cacheStores = "swiftwebimage_cache_stores_total"
    /// Counter, dimensions ``Dimension/tier`` and ``Dimension/reason``: entries removed by the memory cache's
    /// cost or count limit, the disk cache's size limit (`reason` `limit`) or its maximum age (`expired`).
    public static let cacheEvictions = "swiftwebimage_cache_evictions_total"
    /// Gauge: the bytes the disk entries take, recorded whenever the cache knows the total — after each write
    /// when a size limit is set, after each trim and expiry run, and on `totalDiskSize()`.
    public static let diskCacheBytes = "swiftwebimage_disk_cache_bytes"
    /// Counter: disk writes that failed (no permission, disk full); each is also logged at `error`.
    public static let diskWriteFailures = "swiftwebimage_disk_cache_write_failures_total"
    /// Counter: network tasks started. Concurrent callers of one URL share one task.
    public static let downloadsStarted = "swiftwebimage_downloads_started_total"
    /// Counter: callers that joined a task already running (or delivering) for their URL.
    public static let downloadsCoalesced = "swiftwebimage_downloads_coalesced_total"
    /// Counter, dimension ``Dimension/code`` (``WebImageError/code``): tasks that ended in failure, once per
    /// task whatever its number of callers, and requests refused before a task (1000, 2000). Cancellation and
    /// 304 Not Modified are not failures.
    public static let downloadsFailed = "swiftwebimage_downloads_failed_total"
    /// Counter: response body bytes received (of the attempt that counts; a body past the size limit stops).
    public static let downloadBytes = "swiftwebimage_download_received_bytes_total"
    /// Timer: from a task's start to its response head (a file's size for `file://`).
    public static let downloadFirstByte = "swiftwebimage_download_first_byte_seconds"
    /// Timer: from a task's start to the end of its transfer, failed ones included, cancelled ones not.
    public static let downloadDuration = "swiftwebimage_download_duration_seconds"
    /// Timer, dimension ``Dimension/format``: decoding downloaded bytes and disk hits (successful decodes
    /// only; progressive partial decodes are not timed).
    public static let decodeDuration = "swiftwebimage_decode_duration_seconds"
    /// Timer, dimension ``Dimension/format``: encoding an image for the disk cache (successful encodes only).
    public static let encodeDuration = "swiftwebimage_encode_duration_seconds"
    /// Counter: URLs of prefetch batches dealt with, as the batch's `finished` count (skipped ones included).
    public static let prefetchFinished = "swiftwebimage_prefetch_finished_total"
    /// Counter: URLs of prefetch batches that gave no image (failed, cancelled, or never started).
    public static let prefetchSkipped = "swiftwebimage_prefetch_skipped_total"
    /// Counter, dimension ``Dimension/library``: lines the C libraries wrote once ``LibraryLogs`` is installed
    /// (GLib messages and lines captured from standard error), logged or not.
    public static let libraryLogLines = "swiftwebimage_library_log_lines_total"
    /// Counter, dimension ``Dimension/library``: of those, the lines past ``LibraryLogLimits``' rate, dropped
    /// whatever the log level.
    public static let libraryLogLinesDropped = "swiftwebimage_library_log_lines_dropped_total"

    /// The dimension names.
    public enum Dimension {
        /// `memory` or `disk`.
        public static let tier = "tier"
        /// `limit` or `expired`.
        public static let reason = "reason"
        /// A ``WebImageError/code`` in decimal, e.g. `2001`.
        public static let code = "code"
        /// An ``ImageFormat`` raw value: `jpeg`, `png`, `gif`, `webp`, …
        public static let format = "format"
        /// A ``LibraryLogMessage/library``: `libjxl`, `dav1d`, `poppler`, `pango`, …, `unidentified`.
        public static let library = "library"
    }

    /// The values of ``Dimension/tier``.
    public enum Tier {
        public static let memory = "memory"
        public static let disk = "disk"
    }

    /// The values of ``Dimension/reason``.
    public enum Reason {
        /// A cost, count or size limit.
        public static let limit = "limit"
        /// The disk cache's maximum age.
        public static let expired = "expired"
    }
}
