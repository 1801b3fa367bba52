/// A result tier in S3-compatible object storage (AWS S3, MinIO, Ceph RGW, R2), after each instance's memory and
/// disk and beside the Redis tier: instances without Redis share results through it, and a new instance does not
/// start cold (as thumbor's result storage). Every property's documentation gives its default, which is also what
/// `webimage serve --result-store` starts with.
///
/// Objects are named `PREFIX/` and the hex SHA-256 of the result key (never the key itself: it holds source URLs),
/// hold the Redis tier's framed, checksummed value (`SharedCacheEntry`) and carry their expiry as
/// `x-amz-meta-expires` (seconds since 1970); an object past it is a miss, and a bucket lifecycle rule deletes
/// them. A slow or failing store never fails a request: each read has a deadline, a circuit breaker stops asking
/// for a while after failures in a row, a failed read is a miss, and writes happen in the background.
public struct ResultStoreConfiguration: Sendable {
    /// The store and its key; nil: the S3 sources' store (``ImageProxyConfiguration/Sources/s3``). With neither,
    /// there is no result store. Default nil.
    public var store: ImageProxyConfiguration.S3?
    /// The bucket the results are kept in. No default.
    public var bucket: String
    /// Put before every object's name, with a `/` after it; empty: the bucket's top level. Default empty.
    public var prefix: String
    /// How long a result is used after it was written (its `x-amz-meta-expires`). Default 7 days, as the Redis
    /// tier's.
    public var timeToLive: Duration
    /// Most one read may take, connecting included; a write, which never delays an answer and carries the whole
    /// result, may take ten times as long. Default 200 ms: an object store answers in tens of milliseconds where
    /// Redis answers in one, so Redis's 50 ms would turn slow reads into misses.
    public var deadline: Duration
    /// Failures in a row (timeouts, refused connections, 5xx, refused keys) after which the store is not asked
    /// for ``breakerOpenDuration``; then one call tries it again. Default 3.
    public var breakerFailureThreshold: Int
    /// Default 5 s.
    public var breakerOpenDuration: Duration
    /// Writes under way at once; one more is dropped (and counted) rather than queued. Default 64.
    public var maxPendingWrites: Int
    /// The largest result written; bigger ones stay local, and a bigger object read is refused. Default 16 MiB.
    public var maxEntryBytes: Int

    public init(store: ImageProxyConfiguration.S3? = nil, bucket: String, prefix: String = "",
                timeToLive: Duration = .seconds(7 * 24 * 3600), deadline: Duration = .milliseconds(200),
                breakerFailureThreshold: Int = 3, breakerOpenDuration: Duration = .seconds(5),
                maxPendingWrites: Int = 64, maxEntryBytes: Int = 16 << 20) {
        self.store = store
        self.bucket = bucket
        self.prefix = prefix
        self.timeToLive = timeToLive
        self.deadline = deadline
        self.breakerFailureThreshold = breakerFailureThreshold
        self.breakerOpenDuration = breakerOpenDuration
        self.maxPendingWrites = max(0, maxPendingWrites)
        self.maxEntryBytes = maxEntryBytes
    }
}
