import CHEIF
import Foundation
import WebImageCore

/// Encodes one raster as HEIC with libheif 1.15 and its HEVC encoder (x265, linked into Debian's libheif).
///
/// - Quality: `quality` 0…1 → `heif_encoder_set_lossy_quality` 0…100, on x265's 4:2:0.
/// - Lossless: x265's lossless mode on 4:4:4 chroma with an identity-matrix, full-range `nclx` (RGB stored as
///   is), so 8-bit images round-trip pixel-exactly.
/// - Effort: ``ImageEncodeEffort/balanced`` keeps the plugin's default x265 preset (`slow`);
///   ``ImageEncodeEffort/fastest`` uses `ultrafast`.
/// - Orientation: written as `irot`/`imir` by libheif, so the image displays (and decodes) upright.
/// - Metadata: ``Image/metadata``'s EXIF and XMP as metadata items (``HEIFMetadata``).
/// - Samples are written with 8 bits (a 16-bit raster is rounded first).
///
/// Without an HEVC encoder in the linked libheif the encode fails with
/// ``WebImageError/encodingFailed(format:reason:)`` saying so.
enum HEIFEncoder {
    static func encode(_ pixels: PixelBuffer, orientation: ImageOrientation, iccProfile: Data? = nil,
                       metadata: ImageMetadata? = nil, options: ImageEncodeOptions) throws -> Data {
        guard heif_have_encoder_for_format(heif_compression_HEVC) != 0 else {
            throw WebImageError.encodingFailed(format: .heic, reason: "this libheif has no HEVC (x265) encoder")
        }
        guard let context = heif_context_alloc() else {
            throw WebImageError.encodingFailed(format: .heic, reason: "libheif could not create a context")
        }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try HEIFStatus.checkEncoding(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        guard let encoder else {
            throw WebImageError.encodingFailed(format: .heic, reason: "libheif returned no HEVC encoder")
        }
        defer { heif_encoder_release(encoder) }
        try configure(encoder, options: options)

        let image = try makeImage(pixels.converted(to: .rgba8), hasAlpha: pixels.containsTransparency)
        defer { heif_image_release(image) }
        if let iccProfile, !iccProfile.isEmpty {
            try HEIFStatus.checkEncoding(iccProfile.withUnsafeBytes {
                heif_image_set_raw_color_profile(image, "prof", $0.baseAddress, $0.count)
            })
        }
        guard let encoding = heif_encoding_options_alloc() else {
            throw WebImageError.encodingFailed(format: .heic, reason: "libheif could not allocate encoding options")
        }
        defer { heif_encoding_options_free(encoding) }
        encoding.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation.rawValue))
        if options.lossless {
            try setIdentityMatrix(image)
            // libheif 1.15 leaves the `nclx` box out by default (for old macOS); without it a decoder would read
            // the RGB samples as YCbCr.
            encoding.pointee.macOS_compatibility_workaround_no_nclx_profile = 0
        }
        var handle: OpaquePointer?
        try HEIFStatus.checkEncoding(heif_context_encode_image(context, image, encoder, encoding, &handle))
        defer { heif_image_handle_release(handle) }
        if let metadata, let handle { try HEIFMetadata.add(metadata, orientation: orientation, to: handle, in: context) }
        return try write(context)
    }

    private static func configure(_ encoder: OpaquePointer, options: ImageEncodeOptions) throws {
        if options.lossless {
            try HEIFStatus.checkEncoding(heif_encoder_set_lossless(encoder, 1))
            try HEIFStatus.checkEncoding(heif_encoder_set_parameter_string(encoder, "chroma", "444"))
        } else {
            try HEIFStatus.checkEncoding(heif_encoder_set_lossy_quality(encoder, Int32((options.quality * 100).rounded())))
        }
        if options.resolvedEffort == .fastest {
            try HEIFStatus.checkEncoding(heif_encoder_set_parameter_string(encoder, "preset", "ultrafast"))
        }
    }

    /// Marks `image` as RGB stored as is (`nclx` matrix 0, full range): libheif 1.15's HEVC path converts with
    /// the image's own profile, not the encoding options' `output_nclx_profile`.
    private static func setIdentityMatrix(_ image: OpaquePointer) throws {
        guard let nclx = heif_nclx_color_profile_alloc() else {
            throw WebImageError.encodingFailed(format: .heic, reason: "libheif could not allocate a colour profile")
        }
        defer { heif_nclx_color_profile_free(nclx) }
        nclx.pointee.matrix_coefficients = heif_matrix_coefficients_RGB_GBR
        nclx.pointee.full_range_flag = 1
        try HEIFStatus.checkEncoding(heif_image_set_nclx_color_profile(image, nclx))
    }

    /// A libheif RGB(A) image holding `pixels` (8-bit RGBA); alpha only when some pixel is not opaque.
    private static func makeImage(_ pixels: PixelBuffer, hasAlpha: Bool) throws -> OpaquePointer {
        var image: OpaquePointer?
        let chroma = hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        try HEIFStatus.checkEncoding(heif_image_create(Int32(pixels.width), Int32(pixels.height),
                                                       heif_colorspace_RGB, chroma, &image))
        guard let image else { throw WebImageError.encodingFailed(format: .heic, reason: "libheif returned no image") }
        do {
            try HEIFStatus.checkEncoding(heif_image_add_plane(image, heif_channel_interleaved, Int32(pixels.width),
                                                              Int32(pixels.height), 8))
        } catch {
            heif_image_release(image)
            throw error
        }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            heif_image_release(image)
            throw WebImageError.encodingFailed(format: .heic, reason: "libheif gave no image plane")
        }
        let channels = hasAlpha ? 4 : 3
        pixels.withUnsafeBytes { src in
            for y in 0..<pixels.height {
                let row = plane.advanced(by: y * Int(stride))
                let from = y * pixels.bytesPerRow
                if hasAlpha {
                    row.update(from: src.baseAddress!.advanced(by: from).assumingMemoryBound(to: UInt8.self),
                               count: pixels.bytesPerRow)
                } else {
                    for x in 0..<pixels.width {
                        for c in 0..<channels { row[x * 3 + c] = src[from + x * 4 + c] }
                    }
                }
            }
        }
        return image
    }

    /// The file libheif writes for `context`, collected in memory.
    private static func write(_ context: OpaquePointer) throws -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, bytes, size, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let bytes { sink.data.append(bytes.assumingMemoryBound(to: UInt8.self), count: size) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        try withExtendedLifetime(sink) {
            try HEIFStatus.checkEncoding(heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()))
        }
        return sink.data
    }
}
