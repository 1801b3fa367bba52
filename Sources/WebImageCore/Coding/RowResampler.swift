import CResample

/// Resamples a raster that arrives one row at a time, top to bottom, holding only the rows still in flight.
///
/// A decoder that produces rows (libpng, giflib, a composited animation canvas) feeds them here and gets its
/// thumbnail without ever holding the full-size raster: besides the output it keeps one source row and a
/// few output rows of floats (two when shrinking with the area filter, a kernel's height with the others). The
/// result is exactly what ``Resampler/resample(_:to:kernel:)`` gives for the whole raster, byte for byte: the
/// same taps, summed in the same order.
///
/// ```swift
/// let resampler = RowResampler(sourceSize: header.size, targetSize: thumbnailSize, format: .rgba8)
/// while !resampler.isComplete { resampler.consume(try decoder.nextRow()) }
/// let thumbnail = resampler.finish()
/// ```
///
/// One owner at a time: it is not thread-safe.
public final class RowResampler {
    public let sourceSize: PixelSize
    public let targetSize: PixelSize
    public let format: PixelFormat
    public let kernel: Resampler.Kernel
    /// The index of the source row ``consume(_:)`` expects next.
    public private(set) var nextRow = 0

    private let xTaps: PairedTaps
    private let yTaps: FlatTaps
    private let maxValue: Float
    /// Output rows that can be open (read by the current source row) at the same time.
    private let slotCount: Int
    /// The current source row as premultiplied floats.
    private let row: UnsafeMutableBufferPointer<Float>
    /// The current source row resampled horizontally (one pixel more when the width is odd: pairs are summed).
    private let horizontal: UnsafeMutableBufferPointer<Float>
    /// `slotCount` output rows being summed; output row `d` uses slot `d % slotCount`.
    private let slots: UnsafeMutableBufferPointer<Float>
    private var output: [UInt8]
    /// The lowest output row not yet written, and the lowest not yet opened.
    private var firstOpen = 0, nextToOpen = 0

    /// A resampler from `sourceSize` to `targetSize` (both positive) for rows of `format`, weighing them with
    /// `kernel`.
    public init(sourceSize: PixelSize, targetSize: PixelSize, format: PixelFormat,
                kernel: Resampler.Kernel = .area) {
        precondition(sourceSize.width > 0 && sourceSize.height > 0 && targetSize.width > 0 && targetSize.height > 0,
                     "RowResampler needs positive sizes")
        self.sourceSize = sourceSize
        self.targetSize = targetSize
        self.format = format
        self.kernel = kernel
        xTaps = PairedTaps(FlatTaps(from: sourceSize.width, to: targetSize.width, kernel: kernel),
                           sourceCount: sourceSize.width)
        yTaps = FlatTaps(from: sourceSize.height, to: targetSize.height, kernel: kernel)
        maxValue = format == .rgba8 ? 255 : 65535
        slotCount = yTaps.maximumOverlap(sourceCount: sourceSize.height)
        row = .allocate(capacity: sourceSize.width * 4)
        horizontal = .allocate(capacity: xTaps.pairs * 8)
        slots = .allocate(capacity: slotCount * targetSize.width * 4)
        output = [UInt8](repeating: 0, count: targetSize.pixelCount * format.bytesPerPixel)
    }

    deinit {
        row.deallocate()
        horizontal.deallocate()
        slots.deallocate()
    }

    /// Whether every source row has been consumed.
    public var isComplete: Bool { nextRow == sourceSize.height }

    /// Takes source row ``nextRow``: `sourceSize.width` pixels of ``format`` (extra bytes are ignored).
    public func consume(_ source: UnsafeRawBufferPointer) {
        precondition(!isComplete, "every source row was already consumed")
        precondition(source.count >= sourceSize.width * format.bytesPerPixel, "the row is shorter than the source width")
        let y = nextRow
        nextRow += 1
        while nextToOpen < yTaps.count && yTaps.first(nextToOpen) <= y {
            slot(nextToOpen).update(repeating: 0)
            nextToOpen += 1
        }
        Self.loadPremultipliedRow(source, format: format, width: sourceSize.width, maxValue: maxValue, into: row)
        resampleRow()
        for d in firstOpen..<nextToOpen {
            if let weight = yTaps.weight(of: y, in: d) {
                webimage_resample_accumulate(slot(d).baseAddress!, horizontal.baseAddress!, weight,
                                             Int32(targetSize.width * 4))
            }
            if yTaps.last(d) == y { store(d) }
        }
        while firstOpen < nextToOpen && yTaps.last(firstOpen) <= y { firstOpen += 1 }
    }

    /// The resampled raster, once every source row has been consumed.
    public func finish() -> PixelBuffer {
        precondition(isComplete, "finish() before all \(sourceSize.height) source rows were consumed")
        return PixelBuffer(width: targetSize.width, height: targetSize.height, format: format, bytes: output)
    }

    /// The output as far as it got, for a resample stopped by cancellation (rows not written are zero).
    func unfinished() -> PixelBuffer {
        PixelBuffer(width: targetSize.width, height: targetSize.height, format: format, bytes: output)
    }

    private func slot(_ d: Int) -> UnsafeMutableBufferPointer<Float> {
        let width = targetSize.width * 4, base = (d % slotCount) * width
        return UnsafeMutableBufferPointer(rebasing: slots[base ..< base + width])
    }

    /// The current row through the horizontal taps into ``horizontal``.
    private func resampleRow() {
        xTaps.first.withUnsafeBufferPointer { first in
            xTaps.weights.withUnsafeBufferPointer { weights in
                webimage_resample_row(row.baseAddress!, first.baseAddress!, weights.baseAddress!, Int32(xTaps.taps),
                                      Int32(xTaps.pairs), horizontal.baseAddress!)
            }
        }
    }

    /// Output row `d`, complete in its slot, back to straight alpha in ``output``: one division a pixel, none for
    /// an opaque one (most pixels of most images).
    ///
    /// Kernels with negative lobes overshoot, in alpha as in colour: every value is clamped to the format's range
    /// after unpremultiplying, which for colour is clamping it to 0…alpha before (`c · max / a ≤ max` exactly
    /// when `c ≤ a`), so no colour outgrows its alpha.
    private func store(_ d: Int) {
        let line = slot(d), width = targetSize.width, maxValue = maxValue
        func unpremultiplier(_ alpha: Float) -> Float {
            alpha >= maxValue ? 1 : alpha > 0 ? maxValue / alpha : 0
        }
        func rounded(_ value: Float) -> Float {
            min(maxValue, max(0, value + 0.5))
        }
        output.withUnsafeMutableBytes { out in
            switch format {
            case .rgba8:
                webimage_resample_store_rgba8(line.baseAddress!, Int32(width),
                                              out.baseAddress!.assumingMemoryBound(to: UInt8.self) + d * width * 4)
            case .rgba16:
                let samples = out.assumingMemoryBound(to: UInt16.self)
                let base = d * width * 4
                for x in 0..<width {
                    let i = x * 4, a = line[i + 3], k = unpremultiplier(a)
                    samples[base + i] = UInt16(rounded(line[i] * k))
                    samples[base + i + 1] = UInt16(rounded(line[i + 1] * k))
                    samples[base + i + 2] = UInt16(rounded(line[i + 2] * k))
                    samples[base + i + 3] = UInt16(rounded(a))
                }
            }
        }
    }

    private static func loadPremultipliedRow(_ raw: UnsafeRawBufferPointer, format: PixelFormat, width: Int,
                                             maxValue: Float, into row: UnsafeMutableBufferPointer<Float>) {
        switch format {
        case .rgba8:
            webimage_resample_load_rgba8(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(width),
                                         row.baseAddress!)
        case .rgba16:
            for x in 0..<width {
                let i = x * 4
                let a = Float(raw.loadUnaligned(fromByteOffset: (i + 3) * 2, as: UInt16.self)), k = a / maxValue
                row[i] = Float(raw.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)) * k
                row[i + 1] = Float(raw.loadUnaligned(fromByteOffset: (i + 1) * 2, as: UInt16.self)) * k
                row[i + 2] = Float(raw.loadUnaligned(fromByteOffset: (i + 2) * 2, as: UInt16.self)) * k
                row[i + 3] = a
            }
        }
    }
}
