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
