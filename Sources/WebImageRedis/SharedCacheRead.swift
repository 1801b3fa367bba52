/// What a read of one key of the shared tier found.
public enum SharedCacheRead: Sendable, Hashable {
    /// A whole, verified value.
    case entry(SharedCacheEntry)
    /// No value under the key.
    case absent
    /// A value ``SharedCacheEntry/init(decoding:)`` refuses: torn, foreign, of an earlier version, or changed
    /// since it was written. A miss the caller may count, then overwrite with a fresh value.
    case rejected

    /// The entry, for a whole value.
    public var entry: SharedCacheEntry? {
        if case .entry(let entry) = self { entry } else { nil }
    }
}
