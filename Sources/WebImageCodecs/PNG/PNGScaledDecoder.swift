import CPNGShim
import WebImageCore

/// Decodes a still PNG straight to a smaller size: libpng hands over one row at a time and a
/// ``RowResampler`` folds it into the thumbnail, so the full-size raster is never held.
///
/// A non-interlaced image streams whole, and the result is exactly that of decoding at full size and
/// resampling. An interlaced (Adam7) image cannot give full rows before its last pass arrives, so:
/// - up to ``fullDecodeLimitBytes`` of raster it is decoded at full size and resampled (the exact result);
/// - above that, and when the target fits inside it, the last non-empty pass alone is resampled: pass 7
///   holds every odd row at full width (pass 6, the odd columns, for a one-row image), half the pixels,
///   evenly spread. The earlier passes are decoded and dropped row by row. The thumbnail then averages
///   every other source row instead of all of them: a slightly different, equally sharp picture, in bounded
///   memory (one source row and a few output rows);
/// - otherwise (a target taller or wider than that pass, which only an asked-for size near the full one
///   gives) it is decoded at full size, bounded by ``ImageDecodeOptions/maxPixelCount`` as any decode is.
enum PNGScaledDecoder {
    /// The largest interlaced raster decoded at full size for a thumbnail: 48 MB (12 MP of RGBA8, 6 MP of
    /// RGBA16), so that a thumbnail of any still within the pixel limit takes under 64 MB of working memory.
    static let fullDecodeLimitBytes = 48 << 20

    /// Decodes `bytes`, whose IHDR says `expected` (already checked against the pixel limit), resampled to
    /// `target`; `fullDecodeLimit` is ``fullDecodeLimitBytes`` except in tests.
    static func decode(_ bytes: UnsafeRawBufferPointer, expected: PNGHeader, target: PixelSize, kernel: Resampler.Kernel,
                       fullDecodeLimit: Int = fullDecodeLimitBytes) throws -> PNGRasterDecoder.Result {
        let last = lastPass(of: expected.size)
        if expected.interlaced,
           expected.size.pixelCount * rasterBytesPerPixel(expected) <= fullDecodeLimit
            || target.width > last.size.width || target.height > last.size.height {
            var store = RasterStore.fresh
            let full = try PNGRasterDecoder.decode(bytes, expected: expected, store: &store)
            return PNGRasterDecoder.Result(pixels: Resampler.resample(full.pixels, to: target, kernel: kernel), hasAlpha: full.hasAlpha)
        }
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
              let reader = cpng_reader_create(base, bytes.count) else {
            throw WebImageError.badImageData(.corrupt("libpng could not start a reader"))
        }
        defer { cpng_reader_destroy(reader) }
        var header = cpng_header()
        try check(cpng_reader_start_rows(reader, &header), reader)
        guard Int(header.width) == expected.width, Int(header.height) == expected.height else {
            throw WebImageError.badImageData(.corrupt("libpng read a different size than the IHDR chunk says"))
        }
        let format: PixelFormat = header.output_16 != 0 ? .rgba16 : .rgba8
        var source = expected.size
        if header.interlaced != 0 {
            // Decode and drop the passes before the last; libpng skips empty passes itself.
            var scratch = [UInt8](repeating: 0, count: expected.width * format.bytesPerPixel)
            let cancellation = WorkCancellation.current
            for pass in 0..<last.index {
                let dropped = passSize(expected.size, pass)
                guard dropped.pixelCount > 0 else { continue }
                for _ in 0..<dropped.height {
                    try cancellation?.check()
                    try scratch.withUnsafeMutableBytes { try check(cpng_reader_read_row(reader, $0.baseAddress), reader) }
                }
            }
            source = last.size
        }
        let pixels = try stream(reader, size: source, format: format, to: target, kernel: kernel)
        return PNGRasterDecoder.Result(pixels: pixels, hasAlpha: header.has_alpha != 0)
    }

    /// Bytes per pixel of the decoded raster: 8 for 16-bit sources, else 4.
    private static func rasterBytesPerPixel(_ header: PNGHeader) -> Int {
        header.bitDepth == 16 ? 8 : 4
    }

    /// Reads `size.height` rows of `size.width` pixels from `reader` through a resampler to `target`.
    private static func stream(_ reader: OpaquePointer, size: PixelSize, format: PixelFormat,
                               to target: PixelSize, kernel: Resampler.Kernel) throws -> PixelBuffer {
        let resampler = RowResampler(sourceSize: size, targetSize: target, format: format, kernel: kernel)
        var row = [UInt8](repeating: 0, count: size.width * format.bytesPerPixel)
        let cancellation = WorkCancellation.current
        while !resampler.isComplete {
            try cancellation?.check()
            try row.withUnsafeMutableBytes { raw in
                try check(cpng_reader_read_row(reader, raw.baseAddress), reader)
                resampler.consume(UnsafeRawBufferPointer(raw))
            }
        }
        return resampler.finish()
    }

    /// The last Adam7 pass that holds any pixel, and its reduced image's size.
    static func lastPass(of size: PixelSize) -> (index: Int, size: PixelSize) {
        for pass in stride(from: 6, through: 0, by: -1) where passSize(size, pass).pixelCount > 0 {
            return (pass, passSize(size, pass))
        }
        return (0, size)
    }

    /// The reduced image of Adam7 pass `pass` (0…6): empty when the image is too small to reach it.
    static func passSize(_ size: PixelSize, _ pass: Int) -> PixelSize {
        var columns: UInt32 = 0, rows: UInt32 = 0
        cpng_pass_size(UInt32(size.width), UInt32(size.height), Int32(pass), &columns, &rows)
        return PixelSize(width: Int(columns), height: Int(rows))
    }

    private static func check(_ status: cpng_status, _ reader: OpaquePointer) throws {
        guard status == CPNG_OK else { throw PNGRasterDecoder.error(status, String(cString: cpng_reader_message(reader))) }
    }
}
