import WebImage

/// The metadata a result carries, as imgproxy decides it from `strip_metadata` and `keep_copyright`: none, the
/// copyright only (the default), or all of the source's with the EXIF orientation set to 1 (results are
/// upright).
enum ResultMetadata {
    /// What of the source's metadata a result keeps.
    enum Kept: String {
        case none = "1:0"
        case copyright = "1:1"
        case all = "0"

        init(_ options: ProcessingOptions) {
            self = !options.stripMetadata ? .all : options.keepCopyright ? .copyright : .none
        }
    }

    /// Whether the source's metadata must be read while decoding.
    static func isRead(for options: ProcessingOptions) -> Bool {
        Kept(options) != .none
    }

    /// The metadata the result of `options` carries, from what the source carried.
    static func result(from source: ImageMetadata?, options: ProcessingOptions) -> ImageMetadata? {
        switch Kept(options) {
        case .none: nil
        case .copyright: source?.copyrightOnly
        case .all: source?.settingEXIFOrientation(.up)
        }
    }
}
