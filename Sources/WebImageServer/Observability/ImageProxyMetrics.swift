/// The names and dimensions of the metrics the image service itself reports through swift-metrics, beside the
/// pipeline's own (``WebImageMetrics``: the proxy's source downloader reports `swiftwebimage_download_*`, so
/// origin bytes are `swiftwebimage_download_received_bytes_total`).
///
/// They are made from ``ImageProxyConfiguration/metricsFactory`` when the proxy is; without a backend each is
/// swift-metrics' no-op and no clock is read for the stage timers. Requests by status and requests in flight
/// on every route are Hummingbird's metrics (`hb_requests`, `http_server_active_requests`,
/// `http_server_request_duration`), recorded by `RequestMetricsMiddleware`, which `ImageProxyServer` adds when
/// it serves metrics.
///
/// | Label | Type | Dimensions | Counts or measures |
/// |---|---|---|---|
/// | `swiftwebimage_serve_requests_in_flight` | meter | – | image and info requests being answered |
/// | `swiftwebimage_serve_queue_depth` | meter | – | requests waiting for a worker |
/// | `swiftwebimage_serve_stage_duration_seconds` | timer | `stage` | download, decode, process, encode |
/// | `swiftwebimage_serve_result_cache_hits_total` | counter | `tier` | requests answered from memory or disk |
/// | `swiftwebimage_serve_result_cache_misses_total` | counter | – | requests neither tier answered |
/// | `swiftwebimage_serve_coalesced_total` | counter | – | requests that joined a result being made (or just stored) |
/// | `swiftwebimage_serve_encodes_total` | counter | – | results encoded |
/// | `swiftwebimage_serve_source_downloads_total` | counter | – | source downloads the proxy asked for |
/// | `swiftwebimage_serve_source_cache_hits_total` | counter | – | sources read from the disk cache |
/// | `swiftwebimage_serve_rejected_total` | counter | – | requests refused with 429 (queue full) |
/// | `swiftwebimage_serve_corrupt_cache_values_total` | counter | `tier` | stored values refused by their checks |
public enum ImageProxyMetrics {
    /// Meter: image and `/info` requests the proxy is answering now (health checks not included).
    public static let requestsInFlight = "swiftwebimage_serve_requests_in_flight"
    /// Meter: requests waiting for a worker slot now (at most ``ImageProxyConfiguration/queueSize``).
    public static let queueDepth = "swiftwebimage_serve_queue_depth"
    /// Timer, dimension ``Dimension/stage``: one stage of making a result, successful or not (a stage that
    /// throws is not timed). `download` is the wait for source bytes the source cache did not have.
    public static let stageDuration = "swiftwebimage_serve_stage_duration_seconds"
    /// Counter, dimension ``Dimension/tier`` (`memory`, `disk`): requests answered from the result cache.
    public static let resultCacheHits = "swiftwebimage_serve_result_cache_hits_total"
    /// Counter: requests that neither result-cache tier answered (coalesced ones included).
    public static let resultCacheMisses = "swiftwebimage_serve_result_cache_misses_total"
    /// Counter: requests that joined a result another request was already making, or took one it stored just
    /// after they missed.
    public static let coalesced = "swiftwebimage_serve_coalesced_total"
    /// Counter: results encoded (once per result, however many requests waited for it).
    public static let encodes = "swiftwebimage_serve_encodes_total"
    /// Counter: source downloads asked of the downloader after the source cache missed (the downloader
    /// coalesces concurrent ones for one URL: `swiftwebimage_downloads_started_total` counts real fetches).
    public static let sourceDownloads = "swiftwebimage_serve_source_downloads_total"
    /// Counter: sources read from the disk cache of originals without asking the origin.
    public static let sourceCacheHits = "swiftwebimage_serve_source_cache_hits_total"
    /// Counter: stale cached sources the origin confirmed unchanged (a 304 to a conditional request).
    public static let sourcesNotModified = "swiftwebimage_serve_sources_not_modified_total"
    /// Counter: stale cached sources served because their origin failed or timed out when asked to confirm them.
    public static let staleSourcesServed = "swiftwebimage_serve_stale_sources_served_total"
    /// Counter: large sources (1 MiB and more) not written to the disk cache because the previous large source's
    /// store was still waiting on the disk.
    public static let sourceStoresSkipped = "swiftwebimage_serve_source_stores_skipped_total"
    /// Counter: requests refused at once with 429 because the queue was full.
    public static let rejected = "swiftwebimage_serve_rejected_total"
    /// Counter, dimension ``Dimension/tier`` (`disk`, `shared`, `s3`): cached results and sources refused when read
    /// because their bytes fail the checksum they were stored with (or have none, from an earlier version);
    /// each is a miss, and is removed (disk) or overwritten by the fresh value (shared, s3).
    public static let corruptCacheValues = "swiftwebimage_serve_corrupt_cache_values_total"

    /// The dimension names.
    public enum Dimension {
        /// A ``Stage`` value.
        public static let stage = "stage"
        /// ``WebImageMetrics/Tier``'s `memory` or `disk`, `shared` (the Redis tier) or `s3` (the result store).
        public static let tier = "tier"
    }

    /// The values of ``Dimension/stage``.
    public enum Stage: String, Sendable, CaseIterable {
        /// Waiting for the source's bytes from the origin.
        case download
        /// Decoding the source (at the reduced size the result needs).
        case decode
        /// Orientation, rotation, crop, resize and filters.
        case process
        /// Encoding the result.
        case encode
    }
}
