import CAVIF
import CHEIF
import Foundation
import WebImage

/// libavif's plain still encode with AVIFEncoder's default settings: 8-bit 4:2:0, full range, BT.709 primaries,
/// the sRGB curve and the BT.601 matrix, `avifImageRGBToYUV` from the RGBA raster (alpha ignored), one
/// quantizer for min and max, speed 6 and libavif's default single thread (`maxThreads` 1).
final class RawAVIFEncoder {
    private let pixels: [UInt8]
    private let width: Int, height: Int
    private let quantizer: Int32, speed: Int32
    /// The size of the last output, in bytes.
    private(set) var outputSize = 0

    init(_ raster: PixelBuffer, quantizer: Int32, speed: Int32) {
        pixels = raster.bytes
        (width, height) = (raster.width, raster.height)
        (self.quantizer, self.speed) = (quantizer, speed)
    }

    func encode() throws {
        guard let image = avifImageCreate(UInt32(width), UInt32(height), 8, AVIF_PIXEL_FORMAT_YUV420),
              let encoder = avifEncoderCreate() else { throw failure("could not create an image or encoder") }
        defer {
            avifImageDestroy(image)
            avifEncoderDestroy(encoder)
        }
        image.pointee.yuvRange = AVIF_RANGE_FULL
        image.pointee.colorPrimaries = UInt16(AVIF_COLOR_PRIMARIES_BT709)
        image.pointee.transferCharacteristics = UInt16(AVIF_TRANSFER_CHARACTERISTICS_SRGB)
        image.pointee.matrixCoefficients = UInt16(AVIF_MATRIX_COEFFICIENTS_BT601)
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.ignoreAlpha = AVIF_TRUE
        rgb.rowBytes = UInt32(width * 4)
        var result = pixels.withUnsafeBufferPointer { source in
            rgb.pixels = UnsafeMutablePointer(mutating: source.baseAddress)
            return avifImageRGBToYUV(image, &rgb)
        }
        (encoder.pointee.minQuantizer, encoder.pointee.maxQuantizer) = (quantizer, quantizer)
        (encoder.pointee.minQuantizerAlpha, encoder.pointee.maxQuantizerAlpha) = (quantizer, quantizer)
        encoder.pointee.speed = speed
        if result == AVIF_RESULT_OK {
            result = avifEncoderAddImage(encoder, image, 1, AVIF_ADD_IMAGE_FLAG_SINGLE.rawValue)
        }
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        if result == AVIF_RESULT_OK { result = avifEncoderFinish(encoder, &output) }
        guard result == AVIF_RESULT_OK else { throw failure(String(cString: avifResultToString(result))) }
        outputSize = output.size
    }

    private func failure(_ reason: String) -> WebImageError {
        .encodingFailed(format: .avif, reason: "raw libavif: \(reason)")
    }
}

/// libheif's plain still encode with HEIFEncoder's default settings: the HEVC (x265) encoder at its default
/// preset and threads, `heif_encoder_set_lossy_quality`, an 8-bit interleaved RGB image (this side is handed
/// the RGB rows ready-made, where HEIFEncoder drops the alpha bytes itself), written to memory.
final class RawHEIFEncoder {
    private let rgb: [UInt8]
    private let width: Int, height: Int
    private let quality: Int32
    /// The file's bytes from the last encode (kept between encodes, like the output buffers of the raw decoders).
    private var output: [UInt8] = []

    init(_ raster: PixelBuffer, quality: Int32) {
        (width, height, self.quality) = (raster.width, raster.height, quality)
        rgb = raster.bytes.enumerated().compactMap { $0.offset % 4 == 3 ? nil : $0.element }
    }

    /// The size of the last output, in bytes.
    var outputSize: Int { output.count }

    func encode() throws {
        guard let context = heif_context_alloc() else { throw failure("heif_context_alloc") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder))
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, quality))
        var image: OpaquePointer?
        try check(heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image))
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(width), Int32(height), 8))
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else { throw failure("no plane") }
        rgb.withUnsafeBytes { source in
            for row in 0..<height {
                UnsafeMutableRawPointer(plane.advanced(by: row * Int(stride)))
                    .copyMemory(from: source.baseAddress!.advanced(by: row * width * 3), byteCount: width * 3)
            }
        }
        try check(heif_context_encode_image(context, image, encoder, nil, nil))
        output.removeAll(keepingCapacity: true)
        var writer = heif_writer()
        writer.writer_api_version = 1
        writer.write = { _, bytes, size, userdata in
            let output = userdata!.assumingMemoryBound(to: [UInt8].self)
            if let bytes { output.pointee.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: size)) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        try withUnsafeMutablePointer(to: &output) { try check(heif_context_write(context, &writer, $0)) }
    }

    private func check(_ error: heif_error) throws {
        guard error.code == heif_error_Ok else { throw failure(error.message.map { String(cString: $0) } ?? "error") }
    }

    private func failure(_ reason: String) -> WebImageError {
        .encodingFailed(format: .heic, reason: "raw libheif: \(reason)")
    }
}
