import Logging
import Metrics
import WebImageRedis

/// The Redis tier several instances share, after each one's memory and disk: processed results (with their
/// format, ETag and Last-Modified) and original sources. Every property's documentation gives its default,
/// which is also what `webimage serve --shared-cache` starts with.
///
/// A slow or dead Redis never fails a request: every call has ``deadline``, a server's circuit breaker stops
/// calling it for ``breakerOpenDuration`` after ``breakerFailureThreshold`` failures in a row, and a failed
/// read is a miss. Writes happen in the background and never delay an answer.
public struct SharedCacheConfiguration: Sendable {
    /// The Redis servers; keys are spread over them by consistent hashing, so adding one of N moves about
    /// 1/N of the keys. No default.
    public var endpoints: [RedisEndpoint]
    /// How long a value lives in Redis. Default 7 days.
    public var timeToLive: Duration
    /// The most one Redis call may take, connecting included. Default 50 ms.
    public var deadline: Duration
    /// Failures in a row that open a server's circuit breaker. Default 3.
    public var breakerFailureThreshold: Int
    /// How long an open breaker refuses calls before it lets one trial through. Default 5 s.
    public var breakerOpenDuration: Duration
    /// Connections kept to each server. Default 2.
    public var connectionsPerServer: Int
    /// Writes under way at once; one more is dropped (and counted) rather than queued, so a slow Redis
    /// cannot pile up work. Default 64.
    public var maxPendingWrites: Int
    /// The largest value written; bigger results and sources stay local. Default 16 MiB.
    public var maxEntryBytes: Int
    /// Put before every key, so the tier can share a Redis with other data. Default `swi:`.
    public var keyPrefix: String
    /// Where the tier's metrics (``SharedCacheMetrics``) are made. Default nil: `MetricsSystem.factory` as it
    /// is when the proxy is made, so bootstrapping after making the configuration still counts.
    public var metricsFactory: (any MetricsFactory)?
    /// Where failed writes are logged (at `warning`). Default `Logger(label: "SwiftWebImage.SharedCache")`.
    public var logger: Logger

    public init(endpoints: [RedisEndpoint], timeToLive: Duration = .seconds(7 * 24 * 3600),
                deadline: Duration = .milliseconds(50), breakerFailureThreshold: Int = 3,
                breakerOpenDuration: Duration = .seconds(5), connectionsPerServer: Int = 2,
                maxPendingWrites: Int = 64, maxEntryBytes: Int = 16 << 20, keyPrefix: String = "swi:",
                metricsFactory: (any MetricsFactory)? = nil,
                logger: Logger = Logger(label: "SwiftWebImage.SharedCache")) {
        self.endpoints = endpoints
        self.timeToLive = timeToLive
        self.deadline = deadline
        self.breakerFailureThreshold = breakerFailureThreshold
        self.breakerOpenDuration = breakerOpenDuration
        self.connectionsPerServer = connectionsPerServer
        self.maxPendingWrites = max(0, maxPendingWrites)
        self.maxEntryBytes = maxEntryBytes
        self.keyPrefix = keyPrefix
        self.metricsFactory = metricsFactory
        self.logger = logger
    }
}
