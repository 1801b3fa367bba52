import CJPEGShim
import Dispatch
import WebImageCore

/// One-shot decoding of a large single-scan JPEG whose profile needs converting, with the conversion overlapped:
/// libjpeg writes the raster a band of rows at a time while other cores convert the bands already written, so
/// the conversion adds little to the decode's wall-clock time (see the `color` benchmark). The pixels are those
/// of TurboJPEG's decode converted afterwards: the incremental decoder uses the same IDCT and upsampling.
enum JPEGBandedDecoding {
    /// Rasters smaller than this are decoded whole and then converted: the hand-over would cost more than it saves.
    static let minimumPixelCount = 1 << 20
    /// Rows per band: at 4,000 pixels a row, 1 MB, converted while it is still in the cache.
    private static let bandRows: Int32 = 64

    /// The decoded and converted raster at `scaling`, written into `store`; nil when the file has several scans
    /// or CMYK samples, which the caller decodes whole.
    static func decode(_ raw: UnsafeRawBufferPointer, scaling: JPEGScaling, conversion: ColorConversion,
                       store: inout RasterStore) throws -> PixelBuffer? {
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw WebImageError.badImageData(.empty)
        }
        guard let decoder = wi_jpeg_incremental_create() else { throw JPEGErrors.corrupt("libjpeg could not create a decoder") }
        defer { wi_jpeg_incremental_destroy(decoder) }
        wi_jpeg_incremental_set_input(decoder, base, raw.count, 1)
        var header = WIJPEGHeader()
        _ = try JPEGIncrementalStatus.check(wi_jpeg_incremental_read_header(decoder, &header), decoder, isFinished: true)
        guard header.has_multiple_scans == 0, header.is_cmyk == 0 else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        let started = wi_jpeg_incremental_start(decoder, Int32(scaling.numerator), Int32(scaling.denominator), 0,
                                                &width, &height)
        _ = try JPEGIncrementalStatus.check(started, decoder, isFinished: true)
        let rowBytes = Int(width) * 4
        return try store.fill(width: Int(width), height: Int(height)) { out in
            guard let canvas = out.baseAddress else { return }
            let bands = DispatchGroup()
            // Every band's conversion ends before the raster is handed back, on success or failure.
            defer { bands.wait() }
            // Each band's conversion writes only its own rows, which libjpeg has finished with.
            nonisolated(unsafe) let shared = canvas
            var handedOver = 0
            while true {
                var rows: Int32 = 0
                let status = wi_jpeg_incremental_advance_rows(decoder, canvas.assumingMemoryBound(to: UInt8.self),
                                                              bandRows, &rows)
                if Int(rows) > handedOver {
                    let band = UnsafeMutableRawBufferPointer(start: shared + handedOver * rowBytes,
                                                             count: (Int(rows) - handedOver) * rowBytes)
                    nonisolated(unsafe) let written = band
                    DispatchQueue.global().async(group: bands) {
                        conversion.apply(to: written, pixelCount: written.count / 4)
                    }
                    handedOver = Int(rows)
                }
                switch status {
                case WI_JPEG_PROGRESS:
                    continue
                case WI_JPEG_DONE:
                    if wi_jpeg_incremental_truncated(decoder) != 0 { throw WebImageError.badImageData(.truncated) }
                    return
                default:
                    _ = try JPEGIncrementalStatus.check(status, decoder, isFinished: true)
                    throw JPEGErrors.corrupt("libjpeg did not reach the end of the image")
                }
            }
        }
    }
}
