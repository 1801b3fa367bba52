import WebImage

/// The byte a ``SharedCacheEntry`` stores for its format: a fixed table, so adding or reordering a case of
/// `ImageFormat` never changes what a stored value means. The codes are the positions the cases had in
/// `allCases` when values stored that position, so values written then still read.
///
/// A new format takes the next unused code: the switch is exhaustive, so a new case does not compile without one,
/// and `SharedCacheFormatCodeTests` pins the whole table. A code is never reused.
extension ImageFormat {
    var sharedCacheCode: UInt8 {
        switch self {
        case .jpeg: 0
        case .png: 1
        case .gif: 2
        case .webp: 3
        case .heic: 4
        case .heif: 5
        case .avif: 6
        case .tiff: 7
        case .bmp: 8
        case .svg: 9
        case .pdf: 10
        case .jxl: 11
        case .undefined: 12
        case .ico: 13
        case .mp4: 14
        case .mov: 15
        case .webm: 16
        case .mkv: 17
        case .avi: 18
        }
    }

    /// The format stored as `code`; nil for a code no format has (a value of a newer writer, or foreign bytes).
    init?(sharedCacheCode code: UInt8) {
        guard let format = Self.allCases.first(where: { $0.sharedCacheCode == code }) else { return nil }
        self = format
    }
}
