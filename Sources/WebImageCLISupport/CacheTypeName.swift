import WebImage

extension ImageCacheType {
    /// `none`, `memory` or `disk`, as SDWebImage names the cache types: `fetch --json`'s `cacheType` and the
    /// demo's.
    package var name: String {
        switch self {
        case .none: "none"
        case .memory, .all: "memory"
        case .disk: "disk"
        }
    }
}
