import Foundation
import Logging
import Metrics

/// Which file date decides an entry's age for expiry and size trimming (SDWebImage's `SDImageCacheConfigExpireType`).
public enum DiskCacheExpireType: Sendable, Hashable {
    /// When the entry was last written or read. The cache records it itself, as the file's access time set
    /// explicitly on every write and read hit: the kernel's own atime is unreliable (`noatime`, `relatime`).
    case accessDate
    /// When the entry was last written.
    case modificationDate
    /// When the entry's file was created (each write creates a new file, so also the last write).
    case creationDate
}

/// How entries are written to disk (the counterpart of SDWebImage's `diskCacheWritingOptions`).
public struct DiskWritingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `fsync` each file before it replaces the old entry, so a power loss cannot leave it empty.
    /// Writes are atomic against crashes of the process either way; this costs a disk flush per write.
    public static let durable = DiskWritingOptions(rawValue: 1 << 0)
}

extension DiskCache {
    /// Expiry, size limit and write settings.
    public struct Configuration: Sendable, Hashable, InstrumentedConfiguration {
        /// Seconds an entry lives, by ``expireType``. Default one week; negative: never expires;
        /// 0: everything expires at the next cleanup.
        public var maxDiskAge: TimeInterval
        /// The most bytes the entries may take. Default 0: unlimited. Enforced on every write: a write that
        /// takes the total over the limit deletes the least recently used entries until at most half is used.
        public var maxDiskSize: Int
        /// The date that ages an entry. Default ``DiskCacheExpireType/accessDate``.
        public var expireType: DiskCacheExpireType
        /// Default none.
        public var writingOptions: DiskWritingOptions
        /// Store extended data in a `user.` extended attribute. Default true; where the file system has no
        /// extended attributes the cache falls back to a hidden sidecar file by itself. False always uses
        /// the sidecar.
        public var useExtendedAttributes: Bool
        /// Where the disk cache logs trims and expiry (`info` when entries go) and write failures (`error`), and
        /// where its evictions, bytes and write failures (``WebImageMetrics``) are made. Default
        /// `Instrumentation(label: "SwiftWebImage.DiskCache")`; an ``ImageCache`` passes its own. Not part of `==`.
        public var instrumentation = Instrumentation(label: "SwiftWebImage.DiskCache")

        public init(maxDiskAge: TimeInterval = 7 * 24 * 3600, maxDiskSize: Int = 0,
                    expireType: DiskCacheExpireType = .accessDate, writingOptions: DiskWritingOptions = [],
                    useExtendedAttributes: Bool = true) {
            self.maxDiskAge = maxDiskAge
            self.maxDiskSize = maxDiskSize
            self.expireType = expireType
            self.writingOptions = writingOptions
            self.useExtendedAttributes = useExtendedAttributes
        }
    }
}
