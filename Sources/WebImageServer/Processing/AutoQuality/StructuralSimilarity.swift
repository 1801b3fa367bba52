import WebImage

/// The mean SSIM of two RGBA8 rasters of one size, on ``Lightness``, under ``GaussianWindow/ssim``: the loop
/// behind ``DSSIM``.
///
/// Streams: each source row is made lightness and row-blurred once (x, y, x², y², xy) into a ring of as many
/// rows as the window has taps, and each output row sums the ring's rows under the window's column. The
/// memory is a few dozen rows of the width, whatever the height; one allocation a comparison.
enum StructuralSimilarity {
    /// Wang et al.'s constants for a range of 1: (0.01 L)² and (0.03 L)².
    static let c1 = 0.01 * 0.01, c2 = 0.03 * 0.03
    /// The planes blurred: x, y, x², y², xy.
    private static let planes = 5

    /// The mean over all pixels of the SSIM map of `reference` and `candidate` (RGBA8 bytes of `width` ×
    /// `height` pixels each); nil when `cancellation` stopped it, polled every ``RasterOps/rowsPerCheck`` rows.
    static func mean(_ reference: UnsafeRawBufferPointer, _ candidate: UnsafeRawBufferPointer,
                     width: Int, height: Int, cancellation: WorkCancellation?) -> Double? {
        let window = GaussianWindow.ssim, taps = window.taps
        let columns = window.mirroredIndices(width), rows = window.mirroredIndices(height)
        let ringCount = taps * planes * width, linesCount = planes * width
        var scratch = [Double](repeating: 0, count: ringCount + 2 * linesCount + width + 2 * window.radius)
        return scratch.withUnsafeMutableBufferPointer { scratch -> Double? in
            SRGBCurve.shared.linear.withUnsafeBufferPointer { linear -> Double? in
                columns.withUnsafeBufferPointer { columns -> Double? in
                    let ring = scratch.baseAddress!, sums = ring + ringCount, lines = sums + linesCount
                    let padded = lines + linesCount
                    func ringRow(_ row: Int, _ plane: Int) -> UnsafeMutablePointer<Double> {
                        ring + ((row % taps) * planes + plane) * width
                    }
                    let x = reference.bindMemory(to: UInt8.self).baseAddress!
                    let y = candidate.bindMemory(to: UInt8.self).baseAddress!
                    var blurredRows = 0, total = 0.0
                    for row in 0..<height {
                        if row % RasterOps.rowsPerCheck == 0, cancellation?.shouldStop() == true { return nil }
                        // Rows past the window's reach below replace, in the ring, rows above its reach.
                        while blurredRows < min(height, row + window.radius + 1) {
                            let offset = blurredRows * width * 4
                            Lightness.fill(x + offset, count: width, linear: linear.baseAddress!, into: lines)
                            Lightness.fill(y + offset, count: width, linear: linear.baseAddress!, into: lines + width)
                            products(lines, width: width)
                            for plane in 0..<planes {
                                window.blurRow(lines + plane * width, through: columns, padded: padded,
                                               into: ringRow(blurredRows, plane), count: width)
                            }
                            blurredRows += 1
                        }
                        for plane in 0..<planes {
                            window.sumColumns(into: sums + plane * width, count: width) { tap in
                                UnsafePointer(ringRow(rows[row + tap], plane))
                            }
                        }
                        total += rowSum(sums, width: width)
                    }
                    return total / Double(width * height)
                }
            }
        }
    }

    /// Fills planes 2, 3 and 4 of `lines` (x², y², xy) from planes 0 and 1 (x, y).
    private static func products(_ lines: UnsafeMutablePointer<Double>, width: Int) {
        for i in 0..<width {
            let x = lines[i], y = lines[width + i]
            lines[2 * width + i] = x * x
            lines[3 * width + i] = y * y
            lines[4 * width + i] = x * y
        }
    }

    /// The sum of one output row's SSIM from its blurred planes (μx, μy, E[x²], E[y²], E[xy]). Written so
    /// that equal inputs make numerator and denominator the same floating-point value: SSIM exactly 1.
    private static func rowSum(_ sums: UnsafeMutablePointer<Double>, width: Int) -> Double {
        var total = 0.0
        for i in 0..<width {
            let meanX = sums[i], meanY = sums[width + i]
            let varianceX = sums[2 * width + i] - meanX * meanX
            let varianceY = sums[3 * width + i] - meanY * meanY
            let covariance = sums[4 * width + i] - meanX * meanY
            total += ((2 * (meanX * meanY) + c1) * (2 * covariance + c2))
                / ((meanX * meanX + meanY * meanY + c1) * (varianceX + varianceY + c2))
        }
        return total
    }
}
