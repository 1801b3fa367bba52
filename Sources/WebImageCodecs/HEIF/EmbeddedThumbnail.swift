import CHEIF
import Foundation
import WebImageCore

/// Decode an HEIF, HEIC or AVIF file's first embedded thumbnail instead of its primary image when it has one,
/// as libvips' `heifload` does with `thumbnail` (imgproxy's `enforce_thumbnail`); a file without one decodes
/// as usual. Default false.
///
/// ```swift
/// var options = ImageDecodeOptions()
/// options.coderOptions[EmbeddedThumbnail.self] = true
/// ```
public enum EmbeddedThumbnail: ImageCoderOptionKey {
    public static let defaultValue = false
}

extension HEIFDecoding {
    /// The first embedded thumbnail of `data` (read by libheif, which parses AVIF too) as `format`, in the
    /// options' colour space and size; nil when the file has none.
    static func embeddedThumbnail(_ data: Data, format: ImageFormat, store: inout RasterStore,
                                  options: ImageDecodeOptions) throws -> Image? {
        try data.withUnsafeBytes { bytes in
            let file = try HEIFFile(bytes, options: options)
            guard let thumbnail = file.firstThumbnail() else { return nil }
            defer { heif_image_handle_release(thumbnail.handle) }
            var pixels = try HEIFRaster.decode(thumbnail.handle, store: &store)
            let color = embeddedColor(of: thumbnail.handle) ?? embeddedColor(of: file.primary)
            let colour = ColorManagement.manage(&pixels, color: color, options: options)
            let image = Image(frames: [ImageFrame(pixels: pixels)], format: format,
                              hasAlpha: heif_image_handle_has_alpha_channel(thumbnail.handle) != 0,
                              iccProfile: colour.iccProfile, colorProfileIssue: colour.issue)
            return options.finish(image, sourceSize: thumbnail.size)
        }
    }
}

extension HEIFFile {
    /// The first thumbnail the primary image lists, the one libvips takes, with its size. The caller releases
    /// the handle.
    func firstThumbnail() -> (handle: OpaquePointer, size: PixelSize)? {
        var id: heif_item_id = 0
        guard heif_image_handle_get_list_of_thumbnail_IDs(primary, &id, 1) == 1 else { return nil }
        var handle: OpaquePointer?
        guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { return nil }
        return (handle, PixelSize(width: Int(heif_image_handle_get_width(handle)),
                                  height: Int(heif_image_handle_get_height(handle))))
    }
}
