import Foundation
import Logging
import Metrics

extension ImageCache {
    /// Everything that shapes an ``ImageCache`` (SDWebImage's `SDImageCacheConfig`); fixed at init.
    public struct Configuration: Sendable, Hashable, InstrumentedConfiguration {
        /// Keep decoded images in memory. Default true.
        public var shouldCacheImagesInMemory: Bool
        /// Keep images evicted from memory findable while the app still holds them. Default false.
        public var shouldUseWeakMemoryCache: Bool
        /// The memory cache's total cost limit in bytes. Default ``MemoryBudget/defaultMemoryCacheCost``:
        /// 10 % of the memory available to the process (physical, or the cgroup limit when lower), at most
        /// 128 MiB. 0 or less: unlimited (an iPhone app's default, unsafe in a long-lived Linux process, which
        /// gets no memory warnings).
        public var maxMemoryCost: Int
        /// The most one image may cost to be kept in memory (it still goes to disk). Default nil: a quarter of
        /// ``maxMemoryCost`` (32 MiB at most by default; none when that is unlimited). 0 or less: no limit.
        public var maxMemoryEntryCost: Int?
        /// The memory cache's entry limit. Default 0: unlimited.
        public var maxMemoryCount: Int
        /// Seconds a disk entry lives. Default one week; negative: forever; 0: expires at the next cleanup.
        public var maxDiskAge: TimeInterval
        /// The disk cache's size limit in bytes, enforced on every write. Default 0: unlimited.
        public var maxDiskSize: Int
        /// The date disk entries age by. Default ``DiskCacheExpireType/accessDate``.
        public var diskCacheExpireType: DiskCacheExpireType
        /// Seconds between automatic ``ImageCache/deleteOldFiles(completion:)`` runs. Default 3600;
        /// nil: only on demand.
        public var expirationInterval: TimeInterval?
        /// How disk entries are written. Default none.
        public var diskWritingOptions: DiskWritingOptions
        /// Store extended data in extended attributes (falling back to sidecar files where unsupported).
        /// Default true.
        public var useExtendedAttributes: Bool
        /// Where the cache, its memory and its disk part log — disk hits and misses, trims, evictions, expiry
        /// at `debug`/`info`, undecodable entries at `warning`, disk write failures at `error`; memory hits only at
        /// `trace` — and where their metrics (``WebImageMetrics``) are made, once, when the cache is. Default
        /// `Instrumentation(label: "SwiftWebImage.ImageCache")`. Not part of `==`.
        public var instrumentation = Instrumentation(label: "SwiftWebImage.ImageCache")

        public init(shouldCacheImagesInMemory: Bool = true, shouldUseWeakMemoryCache: Bool = false,
                    maxMemoryCost: Int = MemoryBudget.defaultMemoryCacheCost, maxMemoryEntryCost: Int? = nil,
                    maxMemoryCount: Int = 0, maxDiskAge: TimeInterval = 7 * 24 * 3600,
                    maxDiskSize: Int = 0, diskCacheExpireType: DiskCacheExpireType = .accessDate,
                    expirationInterval: TimeInterval? = 3600, diskWritingOptions: DiskWritingOptions = [],
                    useExtendedAttributes: Bool = true) {
            self.shouldCacheImagesInMemory = shouldCacheImagesInMemory
            self.shouldUseWeakMemoryCache = shouldUseWeakMemoryCache
            self.maxMemoryCost = maxMemoryCost
            self.maxMemoryEntryCost = maxMemoryEntryCost
            self.maxMemoryCount = maxMemoryCount
            self.maxDiskAge = maxDiskAge
            self.maxDiskSize = maxDiskSize
            self.diskCacheExpireType = diskCacheExpireType
            self.expirationInterval = expirationInterval
            self.diskWritingOptions = diskWritingOptions
            self.useExtendedAttributes = useExtendedAttributes
        }

        var memory: MemoryCache.Configuration {
            var memory = MemoryCache.Configuration(costLimit: maxMemoryCost, countLimit: maxMemoryCount,
                                                   shouldUseWeakCache: shouldUseWeakMemoryCache,
                                                   entryCostLimit: maxMemoryEntryCost ?? max(0, maxMemoryCost) / 4)
            memory.instrumentation = instrumentation
            return memory
        }

        var disk: DiskCache.Configuration {
            var disk = DiskCache.Configuration(maxDiskAge: maxDiskAge, maxDiskSize: maxDiskSize,
                                               expireType: diskCacheExpireType, writingOptions: diskWritingOptions,
                                               useExtendedAttributes: useExtendedAttributes)
            disk.instrumentation = instrumentation
            return disk
        }
    }
}
