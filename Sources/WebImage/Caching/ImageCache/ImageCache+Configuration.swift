import Foundation
import Logging
import Metrics

extension ImageCache {
    /// Everything that shapes an ``ImageCache`` (SDWebImage's `SDImageCacheConfig`); fixed at init. It holds the
    /// configurations of its two tiers, ``memory`` and ``disk``; SDWebImage's flat names (``maxMemoryCost``,
    /// ``maxDiskAge``, …) read and write them.
    public struct Configuration: Sendable, Hashable, InstrumentedConfiguration {
        /// Keep decoded images in memory. Default true.
        public var shouldCacheImagesInMemory: Bool
        /// The memory tier. Default: a cost limit of ``MemoryBudget/defaultMemoryCacheCost`` (10 % of the memory
        /// available to the process, physical or the cgroup limit when lower, at most 128 MiB), no count limit,
        /// no weak cache, and an entry cost limit of a quarter of the cost limit (following it until
        /// ``maxMemoryEntryCost`` is set).
        public var memory: MemoryCache.Configuration
        /// The disk tier. Default: entries live one week by access date, no size limit, no writing options,
        /// extended data in extended attributes.
        public var disk: DiskCache.Configuration
        /// Seconds between automatic ``ImageCache/deleteOldFiles(completion:)`` runs. Default 3600;
        /// nil: only on demand.
        public var expirationInterval: TimeInterval?
        /// Where the cache, its memory and its disk part log — disk hits and misses, trims, evictions, expiry
        /// at `debug`/`info`, undecodable entries at `warning`, disk write failures at `error`; memory hits only at
        /// `trace` — and where their metrics (``WebImageMetrics``) are made, once, when the cache is; it replaces
        /// the tiers' own. Default `Instrumentation(label: "SwiftWebImage.ImageCache")`. Not part of `==`.
        public var instrumentation = Instrumentation(label: "SwiftWebImage.ImageCache")
        /// Whether ``memory``'s entry cost limit is a quarter of its cost limit (nothing set it).
        private var entryCostFollowsCost: Bool

        public init(shouldCacheImagesInMemory: Bool = true, shouldUseWeakMemoryCache: Bool = false,
                    maxMemoryCost: Int = MemoryBudget.defaultMemoryCacheCost, maxMemoryEntryCost: Int? = nil,
                    maxMemoryCount: Int = 0, maxDiskAge: TimeInterval = 7 * 24 * 3600,
                    maxDiskSize: Int = 0, diskCacheExpireType: DiskCacheExpireType = .accessDate,
                    expirationInterval: TimeInterval? = 3600, diskWritingOptions: DiskWritingOptions = [],
                    useExtendedAttributes: Bool = true) {
            self.shouldCacheImagesInMemory = shouldCacheImagesInMemory
            memory = MemoryCache.Configuration(costLimit: maxMemoryCost, countLimit: maxMemoryCount,
                                               shouldUseWeakCache: shouldUseWeakMemoryCache,
                                               entryCostLimit: maxMemoryEntryCost ?? max(0, maxMemoryCost) / 4)
            entryCostFollowsCost = maxMemoryEntryCost == nil
            disk = DiskCache.Configuration(maxDiskAge: maxDiskAge, maxDiskSize: maxDiskSize, expireType: diskCacheExpireType,
                                           writingOptions: diskWritingOptions, useExtendedAttributes: useExtendedAttributes)
            self.expirationInterval = expirationInterval
        }

        /// A configuration of the two tiers' own (their instrumentation is replaced by ``instrumentation``).
        public init(memory: MemoryCache.Configuration, disk: DiskCache.Configuration = DiskCache.Configuration(),
                    shouldCacheImagesInMemory: Bool = true, expirationInterval: TimeInterval? = 3600) {
            self.shouldCacheImagesInMemory = shouldCacheImagesInMemory
            self.memory = memory
            self.disk = disk
            self.expirationInterval = expirationInterval
            entryCostFollowsCost = false
        }

        /// ``memory``'s cost limit in bytes (SDWebImage's name); 0 or less: unlimited (an iPhone app's default,
        /// unsafe in a long-lived Linux process, which gets no memory warnings).
        public var maxMemoryCost: Int {
            get { memory.costLimit }
            set {
                memory.costLimit = newValue
                if entryCostFollowsCost { memory.entryCostLimit = max(0, newValue) / 4 }
            }
        }

        /// The most one image may cost to be kept in memory (it still goes to disk); nil: a quarter of
        /// ``maxMemoryCost`` (none when that is unlimited). 0 or less: no limit.
        public var maxMemoryEntryCost: Int? {
            get { entryCostFollowsCost ? nil : memory.entryCostLimit }
            set {
                entryCostFollowsCost = newValue == nil
                memory.entryCostLimit = newValue ?? max(0, memory.costLimit) / 4
            }
        }

        /// ``memory``'s entry limit; 0: unlimited.
        public var maxMemoryCount: Int {
            get { memory.countLimit }
            set { memory.countLimit = newValue }
        }

        /// Keep images evicted from memory findable while the app still holds them (``memory``'s weak cache).
        public var shouldUseWeakMemoryCache: Bool {
            get { memory.shouldUseWeakCache }
            set { memory.shouldUseWeakCache = newValue }
        }

        /// Seconds a disk entry lives; negative: forever; 0: expires at the next cleanup.
        public var maxDiskAge: TimeInterval {
            get { disk.maxDiskAge }
            set { disk.maxDiskAge = newValue }
        }

        /// The disk cache's size limit in bytes, enforced on every write; 0: unlimited.
        public var maxDiskSize: Int {
            get { disk.maxDiskSize }
            set { disk.maxDiskSize = newValue }
        }

        /// The date disk entries age by.
        public var diskCacheExpireType: DiskCacheExpireType {
            get { disk.expireType }
            set { disk.expireType = newValue }
        }

        /// How disk entries are written.
        public var diskWritingOptions: DiskWritingOptions {
            get { disk.writingOptions }
            set { disk.writingOptions = newValue }
        }

        /// Store extended data in extended attributes (falling back to sidecar files where unsupported).
        public var useExtendedAttributes: Bool {
            get { disk.useExtendedAttributes }
            set { disk.useExtendedAttributes = newValue }
        }

        /// The tiers' configurations with this cache's instrumentation.
        var instrumentedMemory: MemoryCache.Configuration {
            var memory = memory
            memory.instrumentation = instrumentation
            return memory
        }

        var instrumentedDisk: DiskCache.Configuration {
            var disk = disk
            disk.instrumentation = instrumentation
            return disk
        }
    }
}
