import Foundation

extension ImageProxyConfiguration {
    /// The tiers results and sources are kept in: memory, disk, a Redis tier shared by instances, and a result
    /// tier in object storage.
    public struct Caches: Sendable {
        /// Where the source and result caches live (`sources/` and `results/` inside). Default nil: no disk tier.
        public var directory: URL?
        /// Bytes of encoded results kept in memory. Default 64 MiB.
        public var memoryBytes: Int
        /// Bytes the disk cache of sources, and separately that of results, may take. Default 1 GiB each.
        public var diskBytes: Int
        /// A Redis tier shared with other instances, after memory and disk. Default nil: none.
        public var shared: SharedCacheConfiguration?
        /// Results in S3-compatible object storage, after memory and disk and asked after Redis. Default nil: none.
        public var resultStore: ResultStoreConfiguration?
        /// How long a cached source is used before its origin is asked whether it changed (a conditional request
        /// with its `ETag`/`Last-Modified`: a 304 costs no body; a source without validators is fetched whole).
        /// Zero asks every time. Default one hour.
        public var revalidateSourcesAfter: Duration

        public init(directory: URL? = nil, memoryBytes: Int = 64 << 20, diskBytes: Int = 1 << 30,
                    shared: SharedCacheConfiguration? = nil, resultStore: ResultStoreConfiguration? = nil,
                    revalidateSourcesAfter: Duration = .seconds(3600)) {
            self.directory = directory
            self.memoryBytes = memoryBytes
            self.diskBytes = diskBytes
            self.shared = shared
            self.resultStore = resultStore
            self.revalidateSourcesAfter = revalidateSourcesAfter
        }
    }
}
