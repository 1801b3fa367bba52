import CJPEGShim
import Dispatch
import Synchronization
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
    /// or CMYK samples, which the caller decodes whole. Bands are offered to `workers`. Without a `conversion`
    /// (a decode that takes this path for its cancellation checks only) the rows stay as libjpeg wrote them and
    /// `finish` gets the whole raster once decoded.
    static func decode(_ raw: UnsafeRawBufferPointer, scaling: JPEGScaling, conversion: ColorConversion?,
                       store: inout RasterStore, workers: DispatchQueue = .global(),
                       finish: (UnsafeMutableRawBufferPointer) -> Void = { _ in }) throws -> PixelBuffer? {
        guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw WebImageError.badImageData(.empty)
        }
        guard let decoder = wi_jpeg_incremental_create() else { throw JPEGErrors.corrupt("libjpeg could not create a decoder") }
        defer { wi_jpeg_incremental_destroy(decoder) }
        if let context = CancellationHook.currentContext {
            wi_jpeg_incremental_set_stop(decoder, CancellationHook.poll, context)
        }
        wi_jpeg_incremental_set_input(decoder, base, raw.count, 1)
        var header = WIJPEGHeader()
        _ = try JPEGIncrementalStatus.check(wi_jpeg_incremental_read_header(decoder, &header), decoder, isFinished: true)
        guard header.has_multiple_scans == 0, header.is_cmyk == 0 else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        let started = wi_jpeg_incremental_start(decoder, Int32(scaling.numerator), Int32(scaling.denominator),
                                                &width, &height)
        _ = try JPEGIncrementalStatus.check(started, decoder, isFinished: true)
        let rowBytes = Int(width) * 4
        return try store.fill(width: Int(width), height: Int(height)) { out in
            guard let canvas = out.baseAddress else { return }
            let bands = conversion.map {
                BandConversions(conversion: $0, canvas: canvas, rowBytes: rowBytes, workers: workers)
            }
            // Bands not yet taken by another thread are converted here, then those taken are waited for: no band
            // outlives the raster, on success or failure, and the decode never waits for a free thread.
            defer { bands?.finish() }
            var handedOver = 0
            while true {
                var rows: Int32 = 0
                let status = wi_jpeg_incremental_advance_rows(decoder, canvas.assumingMemoryBound(to: UInt8.self),
                                                              bandRows, &rows)
                if let bands, Int(rows) > handedOver {
                    bands.hand(handedOver..<Int(rows))
                    handedOver = Int(rows)
                }
                switch status {
                case WI_JPEG_PROGRESS:
                    continue
                case WI_JPEG_DONE:
                    if wi_jpeg_incremental_truncated(decoder) != 0 { throw WebImageError.badImageData(.truncated) }
                    finish(out)
                    return
                default:
                    _ = try JPEGIncrementalStatus.check(status, decoder, isFinished: true)
                    throw JPEGErrors.corrupt("libjpeg did not reach the end of the image")
                }
            }
        }
    }
}

/// The bands of one raster, each converted exactly once: by a worker thread that takes it, or by the decoding
/// thread in ``finish()``.
private final class BandConversions: @unchecked Sendable {
    // Safe to share: `canvas` is written only within a band's rows, by the one thread that took the band.
    private let conversion: ColorConversion
    private let canvas: UnsafeMutableRawPointer
    private let rowBytes: Int
    private let workers: DispatchQueue
    /// Each band's rows and whether a thread has taken it.
    private let bands = Mutex<[(rows: Range<Int>, taken: Bool)]>([])
    /// Entered when another thread takes a band, left when it has converted it.
    private let running = DispatchGroup()

    init(conversion: ColorConversion, canvas: UnsafeMutableRawPointer, rowBytes: Int, workers: DispatchQueue) {
        self.conversion = conversion
        self.canvas = canvas
        self.rowBytes = rowBytes
        self.workers = workers
    }

    /// Offers finished `rows` to another core.
    func hand(_ rows: Range<Int>) {
        let index = bands.withLock { bands in
            bands.append((rows, false))
            return bands.count - 1
        }
        workers.async { [self] in
            guard let rows = take(index, byWorker: true) else { return }
            convert(rows)
            running.leave()
        }
    }

    /// Converts the bands no thread has taken, then waits for those taken.
    func finish() {
        let count = bands.withLock { $0.count }
        for index in 0..<count {
            if let rows = take(index, byWorker: false) { convert(rows) }
        }
        running.wait()
    }

    private func take(_ index: Int, byWorker: Bool) -> Range<Int>? {
        bands.withLock { bands in
            guard !bands[index].taken else { return nil }
            bands[index].taken = true
            // Entered under the lock, so `finish` cannot pass its wait before a worker's band is counted.
            if byWorker { running.enter() }
            return bands[index].rows
        }
    }

    private func convert(_ rows: Range<Int>) {
        let band = UnsafeMutableRawBufferPointer(start: canvas + rows.lowerBound * rowBytes, count: rows.count * rowBytes)
        conversion.apply(to: band, pixelCount: band.count / 4)
    }
}
