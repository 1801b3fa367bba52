import CHEIF
import Foundation
import WebImageCore

/// A HEIF file read by libheif (`heif_context_read_from_memory_without_copy`), its primary image and that
/// image's embedded thumbnails. The bytes must outlive it: callers keep them borrowed for its lifetime.
///
/// Reading parses the boxes only; no pixel memory exists until ``HEIFRaster`` decodes a handle. libheif's own
/// per-side limit (32768 in 1.15, lowered here to the options' pixel limit when that is smaller) refuses huge
/// `ispe` sizes while parsing; the primary image's displayed size is then checked against
/// ``ImageDecodeOptions/maxPixelCount`` before decoding. Not thread-safe.
final class HEIFFile {
    private let context: OpaquePointer
    let primary: OpaquePointer
    /// The primary image's size as displayed (libheif applies `clap`, `irot` and `imir`).
    let displaySize: PixelSize
    let hasAlpha: Bool

    init(_ bytes: UnsafeRawBufferPointer, options: ImageDecodeOptions) throws {
        guard !bytes.isEmpty else { throw WebImageError.badImageData(.empty) }
        guard let context = heif_context_alloc() else {
            throw WebImageError.badImageData(.corrupt("HEIF: libheif could not create a context"))
        }
        self.context = context
        heif_context_set_maximum_image_size_limit(context, Int32(min(32768, max(1, options.maxPixelCount))))
        var handle: OpaquePointer?
        do {
            try HEIFStatus.check(heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil))
            try HEIFStatus.check(heif_context_get_image_handle(context, try Self.primaryID(context), &handle))
        } catch {
            heif_context_free(context)
            throw error
        }
        guard let handle else {
            heif_context_free(context)
            throw WebImageError.badImageData(.corrupt("HEIF: no primary image"))
        }
        primary = handle
        displaySize = PixelSize(width: Int(heif_image_handle_get_width(handle)),
                                height: Int(heif_image_handle_get_height(handle)))
        hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        // Fully initialised: a throw from here on runs deinit, which releases the handle and the context.
        try options.checkPixelCount(width: displaySize.width, height: displaySize.height)
    }

    /// The primary item, or the first top-level image when `pitm` names an item that is not one (a thumbnail
    /// or a grid tile): the image `heif-convert` and later libheif versions show for such files.
    private static func primaryID(_ context: OpaquePointer) throws -> heif_item_id {
        var id: heif_item_id = 0
        try HEIFStatus.check(heif_context_get_primary_image_ID(context, &id))
        guard heif_context_is_top_level_image_ID(context, id) == 0 else { return id }
        var first: heif_item_id = 0
        guard heif_context_get_list_of_top_level_image_IDs(context, &first, 1) == 1 else {
            throw WebImageError.badImageData(.corrupt("HEIF: the file has no top-level image"))
        }
        return first
    }

    deinit {
        heif_image_handle_release(primary)
        heif_context_free(context)
    }

    /// The smallest embedded thumbnail at least `size` on both sides, if any, with its displayed size. The
    /// caller releases the handle.
    func thumbnail(atLeast size: PixelSize) -> (handle: OpaquePointer, size: PixelSize)? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(count)))
        var best: (handle: OpaquePointer, size: PixelSize)?
        for id in ids.prefix(listed) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else {
                continue
            }
            let thumbSize = PixelSize(width: Int(heif_image_handle_get_width(handle)),
                                      height: Int(heif_image_handle_get_height(handle)))
            let fits = thumbSize.width >= size.width && thumbSize.height >= size.height
                && thumbSize.pixelCount < displaySize.pixelCount
            if fits, best.map({ thumbSize.pixelCount < $0.size.pixelCount }) ?? true {
                if let previous = best { heif_image_handle_release(previous.handle) }
                best = (handle, thumbSize)
            } else {
                heif_image_handle_release(handle)
            }
        }
        return best
    }
}
