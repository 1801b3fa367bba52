import CHEIF
import Foundation
import WebImageCore

/// One-shot decode of a HEIF/HEIC file's primary image, or of its embedded thumbnail when that is at least the
/// size the options ask for.
enum HEIFDecoding {
    static func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        let format: ImageFormat = ImageFormat(sniffing: data) == .heic ? .heic : .heif
        return try data.withUnsafeBytes { bytes in
            let file = try HEIFFile(bytes, options: options)
            let target = options.targetSize(forSource: file.displaySize)
            if let target, let thumbnail = file.thumbnail(atLeast: target) {
                defer { heif_image_handle_release(thumbnail.handle) }
                let pixels = try HEIFRaster.decode(thumbnail.handle, store: &store)
                let image = Image(frames: [ImageFrame(pixels: pixels)], format: format, hasAlpha: file.hasAlpha)
                return options.finish(image, targetSize: target)
            }
            let pixels = try HEIFRaster.decode(file.primary, store: &store)
            let image = Image(frames: [ImageFrame(pixels: pixels)], format: format, hasAlpha: file.hasAlpha)
            return options.finish(image, sourceSize: file.displaySize)
        }
    }
}
