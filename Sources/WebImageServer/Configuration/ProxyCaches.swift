import Foundation

extension ImageProxyConfiguration {
    /// The tiers results and sources are kept in: memory, disk, and a Redis tier shared by instances.
    public struct Caches: Sendable {
        /// Where the source and result caches live (`sources/` and `results/` inside). Default nil: no disk tier.
        public var directory: URL?
        /// Bytes of encoded results kept in memory. Default 64 MiB.
        public var memoryBytes: Int
        /// Bytes the disk cache of sources, and separately that of results, may take. Default 1 GiB each.
        public var diskBytes: Int
        /// A Redis tier shared with other instances, after memory and disk. Default nil: none.
        public var shared: SharedCacheConfiguration?

        public init(directory: URL? = nil, memoryBytes: Int = 64 << 20, diskBytes: Int = 1 << 30,
                    shared: SharedCacheConfiguration? = nil) {
            self.directory = directory
            self.memoryBytes = memoryBytes
            self.diskBytes = diskBytes
            self.shared = shared
        }
    }
}
