import Foundation
import WebImage

/// What `decode` writes: a PAM raster or an encoded image, from the output file's extension.
enum OutputKind: Equatable {
    case pam
    case encoded(ImageFormat)

    /// The kind `path`'s extension asks for; fails naming `path` for an unknown extension or a missing encoder.
    init(path: String) throws {
        if (path as NSString).pathExtension.lowercased() == "pam" {
            self = .pam
        } else {
            self = .encoded(try OutputFormat.resolve(nil, path: path))
        }
    }

    /// `image` as it is written: scaled down to the longest side an encoded format holds (``OutputFormat/fitted(_:to:path:)``).
    func fitted(_ image: Image, path: String) -> Image {
        switch self {
        case .pam: image
        case .encoded(let format): OutputFormat.fitted(image, to: format, path: path)
        }
    }

    /// The bytes to write for `image` (a still image, ``fitted(_:path:)`` first).
    func data(for image: Image, path: String) throws -> Data {
        switch self {
        case .pam: image.pixels.pamData()
        case .encoded(let format): try OutputFormat.encode(image, as: format, options: ImageEncodeOptions(), path: path)
        }
    }
}
