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
