/// Where a cached image was found, or which caches an operation touches (SDWebImage's `SDImageCacheType`).
///
/// As a query result it says where the image came from (`.none` = a miss); as an argument it selects the
/// caches to use (`.all` = memory and disk).
public enum ImageCacheType: Sendable, Hashable, CaseIterable {
    /// No cache: a miss, or "do not cache".
    case none
    /// The in-memory cache only.
    case memory
    /// The on-disk cache only.
    case disk
    /// Memory and disk.
    case all

    /// Whether this selection includes the memory cache.
    public var includesMemory: Bool { self == .memory || self == .all }
    /// Whether this selection includes the disk cache.
    public var includesDisk: Bool { self == .disk || self == .all }
}
