import CHEIF
import Foundation
import WebImageCore

/// EXIF and XMP metadata blocks of a HEIF file's primary image: read through libheif's metadata API (the boxes
/// only, no pixel decoded), written with `heif_context_add_exif_metadata`/`_XMP_metadata`.
enum HEIFMetadata {
    /// More metadata blocks than this on one image is not a real file; the rest are ignored.
    private static let maxBlocks: Int32 = 16

    /// The metadata of a HEIF file's primary image; nil when it has none or libheif cannot read the file.
    static func read(_ data: Data) -> ImageMetadata? {
        guard !data.isEmpty, let context = heif_context_alloc() else { return nil }
        defer { heif_context_free(context) }
        return data.withUnsafeBytes { bytes -> ImageMetadata? in
            var handle: OpaquePointer?
            guard heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil).code
                    == heif_error_Ok,
                  heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok, let handle else {
                return nil
            }
            defer { heif_image_handle_release(handle) }
            var ids = [heif_item_id](repeating: 0, count: Int(maxBlocks))
            let count = heif_image_handle_get_list_of_metadata_block_IDs(handle, nil, &ids, maxBlocks)
            var metadata = ImageMetadata()
            for id in ids.prefix(Int(max(0, min(count, maxBlocks)))) {
                let type = heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
                let content = heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) } ?? ""
                let size = heif_image_handle_get_metadata_size(handle, id)
                guard size > 0, size <= bytes.count else { continue }
                var block = Data(count: size)
                let error = block.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
                guard error.code == heif_error_Ok else { continue }
                if type == "Exif", metadata.exif == nil {
                    metadata.exif = EXIFFilter.tiff(in: block)
                } else if type == "mime", content == "application/rdf+xml", metadata.xmp == nil {
                    metadata.xmp = block
                }
            }
            return metadata.isEmpty ? nil : metadata
        }
    }

    /// Adds `metadata` to the encoded image `handle` of `context`, the EXIF orientation made to agree with
    /// `orientation`.
    static func add(_ metadata: ImageMetadata, orientation: ImageOrientation, to handle: OpaquePointer,
                    in context: OpaquePointer) throws {
        if let exif = metadata.exif(for: orientation) {
            try HEIFStatus.checkEncoding(exif.withUnsafeBytes {
                heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count))
            })
        }
        if let xmp = metadata.xmp {
            try HEIFStatus.checkEncoding(xmp.withUnsafeBytes {
                heif_context_add_XMP_metadata(context, handle, $0.baseAddress, Int32($0.count))
            })
        }
    }
}
