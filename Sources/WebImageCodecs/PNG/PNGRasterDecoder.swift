import CPNGShim
import WebImageCore

/// Decodes one complete, non-animated PNG stream with libpng's full reader (through the C shim) straight into
/// a ``PixelBuffer``: `.rgba8` for sources up to 8 bits, `.rgba16` for 16-bit sources, samples as stored.
///
/// The full reader rather than the simplified API because the simplified one converts gamma (and 16-bit
/// samples to linear light), while decoders are expected to return the stored samples.
enum PNGRasterDecoder {
    /// The decoded raster and whether the source carries alpha (an alpha channel or tRNS).
    struct Result {
        var pixels: PixelBuffer
        var hasAlpha: Bool
    }

    /// Decodes `bytes`, whose IHDR must say `expected` (already checked against the pixel limit), into
    /// `store` (new storage unless a caller's buffer is being reused); `finish` may then edit the raster in
    /// place (colour management).
    static func decode(_ bytes: UnsafeRawBufferPointer, expected: PNGHeader, store: inout RasterStore,
                       finish: (UnsafeMutableRawBufferPointer, PixelFormat) -> Void = { _, _ in }) throws -> Result {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let reader = cpng_reader_create(base, bytes.count) else {
            throw WebImageError.badImageData(.corrupt("libpng could not start a reader"))
        }
        defer { cpng_reader_destroy(reader) }
        if let context = CancellationHook.currentContext { cpng_reader_set_stop(reader, CancellationHook.poll, context) }
        var header = cpng_header()
        let status = cpng_reader_read_header(reader, &header)
        guard status == CPNG_OK else { throw error(status, String(cString: cpng_reader_message(reader))) }
        guard Int(header.width) == expected.width, Int(header.height) == expected.height else {
            throw WebImageError.badImageData(.corrupt("libpng read a different size than the IHDR chunk says"))
        }
        let format: PixelFormat = header.output_16 != 0 ? .rgba16 : .rgba8
        let pixels = try store.fill(width: expected.width, height: expected.height, format: format) { buffer in
            let status = cpng_reader_read_image(reader, buffer.baseAddress, expected.width * format.bytesPerPixel)
            if status != CPNG_OK { throw error(status, String(cString: cpng_reader_message(reader))) }
            finish(buffer, format)
        }
        return Result(pixels: pixels, hasAlpha: header.has_alpha != 0)
    }

    /// The library error for a shim status.
    static func error(_ status: cpng_status, _ message: String) -> WebImageError {
        switch status {
        case CPNG_TRUNCATED: .badImageData(.truncated)
        case CPNG_CANCELLED: .cancelled
        default: .badImageData(.corrupt(message))
        }
    }
}
