import WebImageCore

/// Median-cut palette selection for frames with more than 256 colours (Heckbert's algorithm).
///
/// Colours are histogrammed at 5 bits per channel (4 for ``ImageEncodeEffort/fastest``); the box holding the
/// most pixels × widest spread is split at its pixel median along its widest channel until the palette is
/// full. Each entry is the mean of the pixels in its box, and every pixel takes the entry of the box its cell
/// fell in. Several frames can share one palette made from all their pixels.
enum GIFMedianCut {
    /// Histogram bits per channel for `effort`: 4 bits leave an eighth of the cells to sort and split (the
    /// bulk of the work on a photo), at the price of coarser boxes in densely used colour ranges.
    static func bitsPerChannel(for effort: ImageEncodeEffort) -> Int {
        switch effort {
        case .fastest: 4
        case .balanced: 5
        }
    }

    /// The frames (8-bit RGBA) reduced to one shared palette.
    static func quantize(_ frames: [PixelBuffer], bitsPerChannel bits: Int) -> [GIFIndexedFrame] {
        let cellCount = 1 << (3 * bits)
        var histogram = Histogram(cellCount: cellCount, bitsPerChannel: bits)
        var hasTransparency = false
        let cellsOfFrames = frames.map { tally($0, into: &histogram, hasTransparency: &hasTransparency) }
        let boxes = split(histogram, into: hasTransparency ? 255 : 256)
        var colors = boxes.map { histogram.mean(of: $0.cells) }
        let transparentIndex = hasTransparency ? colors.count : nil
        if hasTransparency { colors.append((0, 0, 0)) }
        // Each cell takes its box's entry: the boxes partition the cells, so no search is needed.
        var entryOfCell = [UInt8](repeating: 0, count: cellCount)
        for (entry, box) in boxes.enumerated() {
            for cell in box.cells { entryOfCell[cell] = UInt8(entry) }
        }
        return cellsOfFrames.map { cells in
            var indices = [UInt8](repeating: UInt8(transparentIndex ?? 0), count: cells.count)
            indices.withUnsafeMutableBufferPointer { indices in
                for i in cells.indices where cells[i] >= 0 { indices[i] = entryOfCell[Int(cells[i])] }
            }
            return GIFIndexedFrame(colors: colors, indices: indices, transparentIndex: transparentIndex)
        }
    }

    /// Adds the frame's opaque pixels (alpha ≥ 128) to `histogram` and returns each pixel's cell (-1 for
    /// transparent pixels).
    private static func tally(_ pixels: PixelBuffer, into histogram: inout Histogram,
                              hasTransparency: inout Bool) -> [Int32] {
        let pixelCount = pixels.width * pixels.height
        let bits = histogram.bitsPerChannel, drop = UInt8(8 - bits)
        var cells = [Int32](repeating: -1, count: pixelCount)
        pixels.withUnsafeBytes { raw in
            histogram.counts.withUnsafeMutableBufferPointer { counts in
                histogram.sums.withUnsafeMutableBufferPointer { sums in
                    cells.withUnsafeMutableBufferPointer { cells in
                        for i in 0..<pixelCount {
                            let (r, g, b, a) = (raw[i * 4], raw[i * 4 + 1], raw[i * 4 + 2], raw[i * 4 + 3])
                            guard a >= 128 else {
                                hasTransparency = true
                                continue
                            }
                            let cell = Int(r >> drop) << (2 * bits) | Int(g >> drop) << bits | Int(b >> drop)
                            counts[cell] += 1
                            sums[cell].r += Int(r)
                            sums[cell].g += Int(g)
                            sums[cell].b += Int(b)
                            cells[i] = Int32(cell)
                        }
                    }
                }
            }
        }
        return cells
    }

    /// Splits the occupied cells into at most `maxBoxes` boxes.
    private static func split(_ histogram: Histogram, into maxBoxes: Int) -> [Box] {
        let occupied = histogram.counts.indices.filter { histogram.counts[$0] > 0 }
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

    /// Pixel counts and channel sums per cell (`bitsPerChannel` bits of red, then green, then blue).
    private struct Histogram {
        var counts: [Int]
        var sums: [(r: Int, g: Int, b: Int)]
        let bitsPerChannel: Int

        init(cellCount: Int, bitsPerChannel: Int) {
            counts = [Int](repeating: 0, count: cellCount)
            sums = Array(repeating: (0, 0, 0), count: cellCount)
            self.bitsPerChannel = bitsPerChannel
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
        /// Bit shift of the widest channel in a cell number (red 2 × bits, green bits, blue 0).
        let axisShift: Int
        /// The mask of one channel in a cell number.
        let mask: Int
        /// Pixels × spread of the widest channel: the box to split next has the largest.
        let priority: Int

        init(cells: [Int], histogram: Histogram) {
            self.cells = cells
            let bits = histogram.bitsPerChannel
            let shifts = [2 * bits, bits, 0]
            mask = 1 << bits - 1
            var population = 0
            var spreads: [Int] = []
            for shift in shifts {
                let values = cells.map { [mask] in $0 >> shift & mask }
                spreads.append((values.max() ?? 0) - (values.min() ?? 0))
            }
            for cell in cells { population += histogram.counts[cell] }
            let widest = spreads.indices.max { spreads[$0] < spreads[$1] } ?? 0
            axisShift = shifts[widest]
            priority = population * (spreads[widest] + 1)
        }

        /// The two boxes either side of the pixel median along the widest channel (both non-empty).
        func halves(histogram: Histogram) -> (Box, Box) {
            let (axisShift, mask) = (axisShift, mask)
            let sorted = cells.sorted { ($0 >> axisShift & mask) < ($1 >> axisShift & mask) }
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
