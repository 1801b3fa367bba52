import Foundation

/// What a query found: the image, the original bytes when they were read, and where they came from.
public struct ImageCacheQueryResult: Sendable {
    /// The image found, nil on a miss.
    public var image: Image?
    /// The bytes read from disk: a disk hit's, or a memory hit's with `.queryMemoryData`; otherwise nil.
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
