import Foundation
import WebImage

/// Which format an output file gets: from `--format` when given, else from its extension.
enum OutputFormat {
    /// The formats the messages suggest.
    static let choices = "jpeg, png, gif, webp, avif, heic or jxl"

    /// The format for `path`: `format` (`jpeg`, `jpg`, `png`, `gif`, `webp`, `jxl`, …) if given, else the extension's.
    ///
    /// Fails naming `path` when the name is unknown or no registered coder writes that format, before any
    /// decoding work is done.
    static func resolve(_ format: String?, path: String) throws -> ImageFormat {
        let resolved: ImageFormat
        if let format {
            guard let named = ImageFormat(fileExtension: format) else {
                throw CLIFailure(subject: path, reason: "unknown --format '\(format)': use \(choices)")
            }
            resolved = named
        } else {
            let ext = (path as NSString).pathExtension
            guard let named = ImageFormat(fileExtension: ext) else {
                let shown = ext.isEmpty ? "no extension" : "extension '.\(ext)'"
                throw CLIFailure(subject: path, reason: "cannot tell the format from \(shown): add --format \(choices)")
            }
            resolved = named
        }
        try requireEncoder(resolved, path: path)
        return resolved
    }

    /// Fails naming `path` when `CodersManager.shared` has no encoder for `format`.
    static func requireEncoder(_ format: ImageFormat, path: String) throws {
        guard CodersManager.shared.canEncode(to: format) else {
            throw CLIFailure(subject: path,
                             error: WebImageError.encodingFailed(format: format, reason: "no registered coder writes it"))
        }
    }

    /// `image` scaled down to the longest side `format` holds (`Image.fitted(to:)`, the service's rule: an icon's
    /// 256 pixels, WebP's 16,383, …), saying so on standard error as `webimage: PATH: scaled WxH to WxH: …`.
    static func fitted(_ image: Image, to format: ImageFormat, path: String) -> Image {
        let fitted = image.fitted(to: format)
        if fitted.pixelSize != image.pixelSize, let side = format.maxSide {
            Console.error("webimage: \(path): scaled \(image.pixelSize) to \(fitted.pixelSize): "
                          + "\(format.rawValue) holds at most \(side) pixels a side")
        }
        return fitted
    }

    /// `image` encoded as `format`; encoder errors become failures about `path`.
    static func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions, path: String) throws -> Data {
        do {
            return try CodersManager.shared.encode(image, as: format, options: options)
        } catch {
            throw CLIFailure(subject: path, error: error)
        }
    }
}
