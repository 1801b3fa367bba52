/// Resizes rasters with an area (box) filter when shrinking and bilinear interpolation when enlarging, or with
/// one of libvips' kernels (``Kernel``), in premultiplied alpha so transparent pixels leave no dark fringes.
///
/// Both entry points stream the source through a ``RowResampler``: the work buffers hold a few rows, never a
/// second copy of the image.
public enum Resampler {
    /// `source` resized to `size` (the same format) with `kernel`; returns `source` itself when the size
    /// already matches.
    ///
    /// Under a cancelled ``WorkCancellation`` it stops within a band of rows and returns an unfinished raster
    /// (rows not reached are transparent), which the cancelled scope never hands on.
    public static func resample(_ source: PixelBuffer, to size: PixelSize, kernel: Kernel = .area) -> PixelBuffer {
        precondition(size.width > 0 && size.height > 0, "resample needs a positive size")
        if source.size == size { return source }
        return source.withUnsafeBytes {
            resample($0, size: source.size, format: source.format, to: size, kernel: kernel)
        }
    }

    /// A tightly packed raster of `size` pixels of `format` that lives in memory someone else owns (a C
    /// decoder's canvas), resized to `target` with `kernel` without copying it first.
    public static func resample(_ raster: UnsafeRawBufferPointer, size: PixelSize, format: PixelFormat,
                                to target: PixelSize, kernel: Kernel = .area) -> PixelBuffer {
        let rowBytes = size.width * format.bytesPerPixel
        precondition(raster.count >= rowBytes * size.height, "the raster is smaller than its size says")
        let resampler = RowResampler(sourceSize: size, targetSize: target, format: format, kernel: kernel)
        let cancellation = WorkCancellation.current
        for y in 0..<size.height {
            // Polled per band of rows; a cancelled resample stops here and its caller's scope discards it.
            if y % bandRows == 0, cancellation?.shouldStop() == true { return resampler.unfinished() }
            resampler.consume(UnsafeRawBufferPointer(rebasing: raster[y * rowBytes ..< (y + 1) * rowBytes]))
        }
        return resampler.finish()
    }

    /// Source rows between two cancellation checks: about a millisecond of work for an 8000-pixel-wide row.
    static let bandRows = 16

    /// Which source samples (and how much of each) make up every destination sample along one axis: indices
    /// ascending and unique, and the first and last never lower than the previous sample's (rows stream in order).
    struct Tap {
        var indices: [Int]
        var weights: [Float]
    }

    /// The area filter's taps: the default kernel, which the other kernels' taps (`Resampler+Kernel`) sit beside.
    static func areaTaps(from source: Int, to destination: Int) -> [Tap] {
        let scale = Double(source) / Double(destination)
        return (0..<destination).map { d in
            if scale >= 1 {
                // Area: destination sample d covers [d·scale, (d+1)·scale) of the source.
                let start = Double(d) * scale, end = start + scale
                var indices: [Int] = [], weights: [Float] = []
                var s = Int(start.rounded(.down))
                while Double(s) < end && s < source {
                    let overlap = min(end, Double(s + 1)) - max(start, Double(s))
                    if overlap > 1e-9 {
                        indices.append(s)
                        weights.append(Float(overlap / scale))
                    }
                    s += 1
                }
                return Tap(indices: indices, weights: weights)
            }
            // Bilinear between the two nearest source centres.
            let position = min(max((Double(d) + 0.5) * scale - 0.5, 0), Double(source - 1))
            let left = Int(position.rounded(.down)), right = min(left + 1, source - 1)
            let fraction = Float(position - Double(left))
            return left == right ? Tap(indices: [left], weights: [1])
                                 : Tap(indices: [left, right], weights: [1 - fraction, fraction])
        }
    }
}

/// One axis's taps flattened into contiguous arrays, so the per-pixel loops touch no nested arrays.
struct FlatTaps {
    /// Source indices of every destination sample, one run per sample.
    let indices: [Int]
    let weights: [Float]
    /// Where each destination sample's run starts in ``indices``; one extra entry ends the last run.
    let starts: [Int]

    init(from source: Int, to destination: Int, kernel: Resampler.Kernel) {
        var indices: [Int] = [], weights: [Float] = [], starts: [Int] = [0]
        for tap in Resampler.taps(from: source, to: destination, kernel: kernel) {
            indices += tap.indices
            weights += tap.weights
            starts.append(indices.count)
        }
        self.indices = indices
        self.weights = weights
        self.starts = starts
    }

    var count: Int { starts.count - 1 }
    /// The first and last source index destination sample `d` reads.
    func first(_ d: Int) -> Int { indices[starts[d]] }
    func last(_ d: Int) -> Int { indices[starts[d + 1] - 1] }

    /// The weight of source index `s` in destination sample `d`, nil when `d` does not read it.
    func weight(of s: Int, in d: Int) -> Float? {
        for k in starts[d] ..< starts[d + 1] where indices[k] == s { return weights[k] }
        return nil
    }

    /// The most destination samples that read any one source index: how many output rows are open at once.
    func maximumOverlap(sourceCount: Int) -> Int {
        var low = 0, high = 0, most = 1
        for s in 0..<sourceCount {
            while high < count && first(high) <= s { high += 1 }
            while low < high && last(low) < s { low += 1 }
            most = max(most, high - low)
        }
        return most
    }
}

/// One axis's taps laid out for the C horizontal pass (`webimage_resample_row`): every destination sample reads
/// the same number of consecutive source samples (zero weights pad the shorter runs and any gap, adding +0, which
/// changes no sum), and destination samples go in pairs, each tap's two weights repeated for the four channels.
struct PairedTaps {
    /// Taps per destination sample.
    let taps: Int
    /// Pairs of destination samples (an odd count's last pair repeats its last sample).
    let pairs: Int
    /// The first source sample each destination sample reads, `2 · pairs` of them.
    let first: [Int32]
    /// For pair q and tap k, from `(q · taps + k) · 8`: the first sample's weight four times, then the second's.
    let weights: [Float]

    init(_ flat: FlatTaps, sourceCount: Int) {
        // Taps span from a sample's first source index to its last (consecutive for every kernel here).
        let count = flat.count, taps = (0..<count).map { flat.last($0) - flat.first($0) + 1 }.max() ?? 1
        let pairs = (count + 1) / 2
        var first = [Int32](repeating: 0, count: pairs * 2), weights = [Float](repeating: 0, count: pairs * taps * 8)
        for slot in 0 ..< pairs * 2 {
            let d = min(slot, count - 1)
            // A span never exceeds the source, so a run moved back from the edge still covers the sample's taps.
            let start = min(flat.first(d), sourceCount - taps)
            first[slot] = Int32(start)
            for k in flat.starts[d] ..< flat.starts[d + 1] {
                let base = ((slot / 2) * taps + flat.indices[k] - start) * 8 + (slot % 2) * 4
                for channel in 0..<4 { weights[base + channel] = flat.weights[k] }
            }
        }
        self.taps = taps
        self.pairs = pairs
        self.first = first
        self.weights = weights
    }
}
