import Logging
import Metrics
import WebImage
import WebImageRedis

/// The flat names of the first releases, each now a property of ``SharedCacheConfiguration/redis`` or
/// ``SharedCacheConfiguration/instrumentation``.
extension SharedCacheConfiguration {
    @available(*, deprecated, renamed: "redis.timeToLive")
    public var timeToLive: Duration {
        get { redis.timeToLive }
        set { redis.timeToLive = newValue }
    }

    @available(*, deprecated, renamed: "redis.client.deadline")
    public var deadline: Duration {
        get { redis.client.deadline }
        set { redis.client.deadline = newValue }
    }

    @available(*, deprecated, renamed: "redis.client.breakerFailureThreshold")
    public var breakerFailureThreshold: Int {
        get { redis.client.breakerFailureThreshold }
        set { redis.client.breakerFailureThreshold = newValue }
    }

    @available(*, deprecated, renamed: "redis.client.breakerOpenDuration")
    public var breakerOpenDuration: Duration {
        get { redis.client.breakerOpenDuration }
        set { redis.client.breakerOpenDuration = newValue }
    }

    @available(*, deprecated, renamed: "redis.client.connections")
    public var connectionsPerServer: Int {
        get { redis.client.connections }
        set { redis.client.connections = max(1, newValue) }
    }

    @available(*, deprecated, renamed: "redis.keyPrefix")
    public var keyPrefix: String {
        get { redis.keyPrefix }
        set { redis.keyPrefix = newValue }
    }

    /// The flat initializer of the first releases.
    @available(*, deprecated, message: "use init(endpoints:redis:maxPendingWrites:maxEntryBytes:instrumentation:)")
    public init(endpoints: [RedisEndpoint], timeToLive: Duration = .seconds(7 * 24 * 3600),
                deadline: Duration = .milliseconds(50), breakerFailureThreshold: Int = 3,
                breakerOpenDuration: Duration = .seconds(5), connectionsPerServer: Int = 2,
                maxPendingWrites: Int = 64, maxEntryBytes: Int = 16 << 20, keyPrefix: String = "swi:",
                metricsFactory: (any MetricsFactory)? = nil,
                logger: Logger = Logger(label: "SwiftWebImage.SharedCache")) {
        let client = RedisClient.Configuration(connections: connectionsPerServer, deadline: deadline,
                                               breakerFailureThreshold: breakerFailureThreshold,
                                               breakerOpenDuration: breakerOpenDuration)
        self.init(endpoints: endpoints,
                  redis: RedisImageCache.Configuration(keyPrefix: keyPrefix, timeToLive: timeToLive, client: client),
                  maxPendingWrites: maxPendingWrites, maxEntryBytes: maxEntryBytes,
                  instrumentation: nil)
        if metricsFactory != nil || logger.label != Self.defaultLoggerLabel {
            instrumentation = Instrumentation(logger: logger, metricsFactory: metricsFactory ?? MetricsSystem.factory)
        }
    }

    @available(*, deprecated, renamed: "instrumentation.metricsFactory")
    public var metricsFactory: (any MetricsFactory)? {
        get { instrumentation?.metricsFactory }
        set {
            instrumentation = newValue.map { Instrumentation(logger: logger, metricsFactory: $0) }
        }
    }

    @available(*, deprecated, renamed: "instrumentation.logger")
    public var logger: Logger {
        get { instrumentation?.logger ?? Logger(label: Self.defaultLoggerLabel) }
        set {
            instrumentation = Instrumentation(logger: newValue,
                                              metricsFactory: instrumentation?.metricsFactory ?? MetricsSystem.factory)
        }
    }
}
