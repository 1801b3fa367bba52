import WebImageCore

/// Median-cut palette selection for frames with more than 256 colours (Heckbert's algorithm).
///
/// Colours are histogrammed at 5 bits per channel; the box holding the most pixels × widest spread is split
/// at its pixel median along its widest channel until the palette is full. Each entry is the mean of the
/// pixels in its box, and every pixel takes the entry of the box its cell fell in.
enum GIFMedianCut {
    private static let cellCount = 32 * 32 * 32

    static func quantize(_ pixels: PixelBuffer) -> GIFIndexedFrame {
        let pixelCount = pixels.width * pixels.height
        var histogram = Histogram(cellCount: cellCount)
        var hasTransparency = false
        var cells = [Int32](repeating: -1, count: pixelCount)
        pixels.withUnsafeBytes { raw in
            for i in 0..<pixelCount {
                let (r, g, b, a) = (raw[i * 4], raw[i * 4 + 1], raw[i * 4 + 2], raw[i * 4 + 3])
                guard a >= 128 else {
                    hasTransparency = true
                    continue
                }
                let cell = Int(r >> 3) << 10 | Int(g >> 3) << 5 | Int(b >> 3)
                histogram.add(cell: cell, r, g, b)
                cells[i] = Int32(cell)
            }
        }
        let boxes = split(histogram, into: hasTransparency ? 255 : 256)
        var colors = boxes.map { histogram.mean(of: $0.cells) }
        let transparentIndex = hasTransparency ? colors.count : nil
        if hasTransparency { colors.append((0, 0, 0)) }
        // Each cell takes its box's entry: the boxes partition the cells, so no search is needed.
        var entryOfCell = [UInt8](repeating: 0, count: cellCount)
        for (entry, box) in boxes.enumerated() {
            for cell in box.cells { entryOfCell[cell] = UInt8(entry) }
        }
        var indices = [UInt8](repeating: UInt8(transparentIndex ?? 0), count: pixelCount)
        for i in 0..<pixelCount where cells[i] >= 0 { indices[i] = entryOfCell[Int(cells[i])] }
        return GIFIndexedFrame(colors: colors, indices: indices, transparentIndex: transparentIndex)
    }

    /// Splits the occupied cells into at most `maxBoxes` boxes.
    private static func split(_ histogram: Histogram, into maxBoxes: Int) -> [Box] {
        let occupied = (0..<cellCount).filter { histogram.counts[$0] > 0 }
        guard !occupied.isEmpty else { return [] }
        var boxes = [Box(cells: occupied, histogram: histogram)]
        while boxes.count < maxBoxes {
            guard let widest = boxes.indices.filter({ boxes[$0].cells.count > 1 })
                .max(by: { boxes[$0].priority < boxes[$1].priority }) else { break }
            let (low, high) = boxes[widest].halves(histogram: histogram)
            boxes[widest] = low
            boxes.append(high)
        }
        return boxes
    }

    /// Pixel counts and channel sums per 5-bit cell.
    private struct Histogram {
        var counts: [Int]
        var sums: [(r: Int, g: Int, b: Int)]

        init(cellCount: Int) {
            counts = [Int](repeating: 0, count: cellCount)
            sums = Array(repeating: (0, 0, 0), count: cellCount)
        }

        mutating func add(cell: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8) {
            counts[cell] += 1
            sums[cell].r += Int(r)
            sums[cell].g += Int(g)
            sums[cell].b += Int(b)
        }

        /// The mean colour of the pixels in `cells`.
        func mean(of cells: [Int]) -> GIFColor {
            var n = 0, r = 0, g = 0, b = 0
            for cell in cells {
                n += counts[cell]
                r += sums[cell].r
                g += sums[cell].g
                b += sums[cell].b
            }
            guard n > 0 else { return (0, 0, 0) }
            return (UInt8((r + n / 2) / n), UInt8((g + n / 2) / n), UInt8((b + n / 2) / n))
        }
    }

    /// A set of histogram cells and the channel it spreads most along.
    private struct Box {
        var cells: [Int]
        /// Bit shift of the widest channel in a cell number (10 red, 5 green, 0 blue).
        let axisShift: Int
        /// Pixels × spread of the widest channel: the box to split next has the largest.
        let priority: Int

        init(cells: [Int], histogram: Histogram) {
            self.cells = cells
            var population = 0
            var spreads: [Int] = []
            for shift in [10, 5, 0] {
                let values = cells.map { $0 >> shift & 31 }
                spreads.append((values.max() ?? 0) - (values.min() ?? 0))
            }
            for cell in cells { population += histogram.counts[cell] }
            let widest = spreads.indices.max { spreads[$0] < spreads[$1] } ?? 0
            axisShift = [10, 5, 0][widest]
            priority = population * (spreads[widest] + 1)
        }

        /// The two boxes either side of the pixel median along the widest channel (both non-empty).
        func halves(histogram: Histogram) -> (Box, Box) {
            let sorted = cells.sorted { ($0 >> axisShift & 31) < ($1 >> axisShift & 31) }
            let total = sorted.reduce(0) { $0 + histogram.counts[$1] }
            var running = 0, cut = 1
            for (i, cell) in sorted.enumerated() {
                running += histogram.counts[cell]
                if running * 2 >= total {
                    cut = min(max(1, i + 1), sorted.count - 1)
                    break
                }
            }
            return (Box(cells: Array(sorted[..<cut]), histogram: histogram),
                    Box(cells: Array(sorted[cut...]), histogram: histogram))
        }
    }
}
