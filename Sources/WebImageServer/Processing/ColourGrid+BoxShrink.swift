import WebImage

extension ColourGrid {
    /// The mean premultiplied colour of each `factor.x × factor.y` block of `pixels` (the last row and column
    /// of blocks may be narrower): the one pass over every pixel, so it reads the buffer in place, whatever
    /// its format, rather than converting a 16 MP image first.
    static func boxShrunk(_ pixels: PixelBuffer, by factor: (x: Int, y: Int)) -> ColourGrid {
        let columns = (pixels.width + factor.x - 1) / factor.x, rows = (pixels.height + factor.y - 1) / factor.y
        var grid = ColourGrid(width: columns, height: rows, rgb: [Double](repeating: 0, count: columns * rows * 3))
        let maximum: Double
        switch pixels.format {
        case .rgba8:
            maximum = 255
            pixels.withUnsafeBytes { grid.accumulate($0.bindMemory(to: UInt8.self), size: pixels.size, factor: factor) }
        case .rgba16:
            maximum = 65535
            pixels.withUnsafeBytes { grid.accumulate($0.bindMemory(to: UInt16.self), size: pixels.size, factor: factor) }
        }
        for row in 0..<rows {
            let blockHeight = min(factor.y, pixels.height - row * factor.y)
            for column in 0..<columns {
                let blockWidth = min(factor.x, pixels.width - column * factor.x)
                // Sums of colour × alpha: back to 0–255 premultiplied colour.
                let divisor = Double(blockWidth * blockHeight) * maximum * maximum / 255
                for c in 0..<3 { grid.rgb[(row * columns + column) * 3 + c] /= divisor }
            }
        }
        return grid
    }

    /// Adds each block's sums of colour × alpha to `rgb`, a row of blocks at a time in integers.
    private mutating func accumulate<Sample: FixedWidthInteger & UnsignedInteger>(
        _ samples: UnsafeBufferPointer<Sample>, size: PixelSize, factor: (x: Int, y: Int)
    ) {
        var sums = [UInt64](repeating: 0, count: width * 3)
        let cancellation = WorkCancellation.current
        for y in 0..<size.height {
            // A cancelled job stops here; the worker drops whatever placement the partial sums give.
            if y % RasterOps.rowsPerCheck == 0, cancellation?.shouldStop() == true { return }
            let row = y * size.width * 4
            for column in 0..<width {
                var r: UInt64 = 0, g: UInt64 = 0, b: UInt64 = 0
                var i = row + column * factor.x * 4
                let end = row + min(size.width, (column + 1) * factor.x) * 4
                while i < end {
                    let alpha = UInt64(samples[i + 3])
                    r &+= UInt64(samples[i]) &* alpha
                    g &+= UInt64(samples[i + 1]) &* alpha
                    b &+= UInt64(samples[i + 2]) &* alpha
                    i += 4
                }
                sums[column * 3] &+= r
                sums[column * 3 + 1] &+= g
                sums[column * 3 + 2] &+= b
            }
            if (y + 1) % factor.y == 0 || y == size.height - 1 {
                let base = (y / factor.y) * width * 3
                for i in sums.indices { rgb[base + i] = Double(sums[i]) }
                for i in sums.indices { sums[i] = 0 }
            }
        }
    }
}
