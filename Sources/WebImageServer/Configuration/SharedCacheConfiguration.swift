import WebImage
import WebImageRedis

/// The Redis tier several instances share, after each one's memory and disk: processed results (with their
/// format, ETag and Last-Modified) and original sources. Every property's documentation gives its default,
/// which is also what `webimage serve --shared-cache` starts with.
///
/// A slow or dead Redis never fails a request: every call has a deadline, a server's circuit breaker stops
/// calling it for a while after failures in a row, and a failed read is a miss (``redis``). Writes happen in
/// the background and never delay an answer.
public struct SharedCacheConfiguration: Sendable {
    /// The Redis servers (`rediss://` ones over TLS, with ACL users or not); keys are spread over them by
    /// consistent hashing, so adding one of N moves about 1/N of the keys. Cluster endpoints
    /// (`RedisEndpoint.isCluster`) are the seeds of one Redis Cluster, whose slots spread the keys instead.
    /// No default.
    public var endpoints: [RedisEndpoint]
    /// The tier's key prefix (default `swi:`), time to live (default 7 days) and each server's client: deadline
    /// (default 50 ms, connecting, TLS handshake and `AUTH` included), breaker (default open after 3 failures in a
    /// row, for 5 s), connections (default 2), TLS (default the system's trust store, no client certificate).
    /// Default `RedisImageCache.Configuration()`.
    public var redis: RedisImageCache.Configuration
    /// Writes under way at once; one more is dropped (and counted) rather than queued, so a slow Redis
    /// cannot pile up work. Default 64.
    public var maxPendingWrites: Int
    /// The largest value written; bigger results and sources stay local. Default 16 MiB.
    public var maxEntryBytes: Int
    /// Where the tier's metrics (``SharedCacheMetrics``) are made and failed writes logged (at `warning`).
    /// Default nil: the proxy's ``ImageProxyConfiguration/instrumentation``'s factory, logging as
    /// `SwiftWebImage.SharedCache`.
    public var instrumentation: Instrumentation?

    /// The label the tier logs with when ``instrumentation`` is nil.
    static let defaultLoggerLabel = "SwiftWebImage.SharedCache"

    public init(endpoints: [RedisEndpoint], redis: RedisImageCache.Configuration = RedisImageCache.Configuration(),
                maxPendingWrites: Int = 64, maxEntryBytes: Int = 16 << 20, instrumentation: Instrumentation? = nil) {
        self.endpoints = endpoints
        self.redis = redis
        self.maxPendingWrites = max(0, maxPendingWrites)
        self.maxEntryBytes = maxEntryBytes
        self.instrumentation = instrumentation
    }
}
