import Foundation

/// The query options the cache understands (the cache subset of SDWebImage's `SDWebImageOptions`).
///
/// The manager's full option set maps onto these by name: each flag here has the same meaning as the
/// SDWebImage option it is named after.
public struct ImageCacheOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// On a memory hit, also read the original bytes from disk (`queryMemoryData`).
    public static let queryMemoryData = ImageCacheOptions(rawValue: 1 << 0)
    /// Read those bytes synchronously on the caller's thread (`queryMemoryDataSync`; needs `queryMemoryData`).
    public static let queryMemoryDataSync = ImageCacheOptions(rawValue: 1 << 1)
    /// On a memory miss, read and decode from disk synchronously on the caller's thread (`queryDiskDataSync`).
    public static let queryDiskDataSync = ImageCacheOptions(rawValue: 1 << 2)
    /// Decode only the first frame of an animation; an animated memory hit answers its first frame
    /// (`decodeFirstFrameOnly`).
    public static let decodeFirstFrameOnly = ImageCacheOptions(rawValue: 1 << 3)
}

/// Per-query settings beside the options (the cache part of SDWebImage's context).
public struct ImageCacheQueryContext: Sendable, Hashable {
    /// How to decode a disk hit. Default nil: `ImageDecodeOptions(cacheKey: key)`, so the scale follows the
    /// key's `@2x`/`@3x` suffix.
    public var decodeOptions: ImageDecodeOptions?
    /// Where a disk hit may be written back to; memory is skipped unless this includes it. Default `.all`.
    public var storeCacheType: ImageCacheType

    public init(decodeOptions: ImageDecodeOptions? = nil, storeCacheType: ImageCacheType = .all) {
        self.decodeOptions = decodeOptions
        self.storeCacheType = storeCacheType
    }
}

/// What a query found: the image, the original bytes when they were read, and where they came from.
public struct ImageCacheQueryResult: Sendable {
    public var image: Image?
    public var data: Data?
    /// `.memory` or `.disk` for a hit, `.none` for a miss or a cancelled query.
    public var cacheType: ImageCacheType

    public init(image: Image?, data: Data?, cacheType: ImageCacheType) {
        self.image = image
        self.data = data
        self.cacheType = cacheType
    }

    /// A miss (also what a cancelled query answers).
    public static let miss = ImageCacheQueryResult(image: nil, data: nil, cacheType: .none)
}
