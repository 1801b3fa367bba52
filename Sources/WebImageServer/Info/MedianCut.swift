import WebImage

/// Modified median cut quantisation as node-vibrant's MMCQ does it: a histogram of 5 bits a channel over the
/// pixels its default filter keeps, boxes split at the median of their longest side, each colour its box's mean.
enum MedianCut {
    private static let bits = 5

    /// At most `colors` swatches of a straight RGBA8 raster, each with how many pixels it stands for.
    static func quantise(_ pixels: PixelBuffer, colors: Int) -> [DominantColors.Swatch] {
        var histogram = [Int](repeating: 0, count: 1 << (3 * bits))
        var low = [31, 31, 31], high = [0, 0, 0]
        pixels.withUnsafeBytes { raw in
            for at in stride(from: 0, to: pixels.width * pixels.height * 4, by: 4) {
                let r = Int(raw[at]), g = Int(raw[at + 1]), b = Int(raw[at + 2])
                guard raw[at + 3] >= 125, !(r > 250 && g > 250 && b > 250) else { continue }
                let bucket = [r >> 3, g >> 3, b >> 3]
                histogram[index(bucket[0], bucket[1], bucket[2])] += 1
                for channel in 0..<3 {
                    low[channel] = min(low[channel], bucket[channel])
                    high[channel] = max(high[channel], bucket[channel])
                }
            }
        }
        guard high[0] >= low[0] else { return [] }
        var boxes = [Box(low: low, high: high, histogram: histogram)]
        // node-vibrant's priority queue: sorted ascending (a stable sort), the last popped.
        split(&boxes, until: Int(0.75 * Double(colors))) { $0.count }
        split(&boxes, until: colors) { $0.count * $0.volume }
        boxes.sort { $0.count * $0.volume < $1.count * $1.volume }
        return boxes.reversed().map { DominantColors.Swatch(rgb: $0.average, population: $0.count) }
    }

    private static func index(_ r: Int, _ g: Int, _ b: Int) -> Int { r << (2 * bits) | g << bits | b }

    private static func split(_ boxes: inout [Box], until target: Int, by priority: (Box) -> Int) {
        var lastSize = boxes.count
        while boxes.count < target {
            boxes.sort { priority($0) < priority($1) }
            guard let box = boxes.popLast(), box.count > 0 else { break }
            let parts = box.split()
            guard let first = parts.first else { break }
            boxes.append(first)
            if parts.count > 1, parts[1].count > 0 { boxes.append(parts[1]) }
            if boxes.count == lastSize { break }
            lastSize = boxes.count
        }
    }

    private struct Box {
        var low: [Int]
        var high: [Int]
        let histogram: [Int]
        let count: Int

        init(low: [Int], high: [Int], histogram: [Int]) {
            self.low = low
            self.high = high
            self.histogram = histogram
            // A cut at a side's end leaves the other part empty (its low above its high).
            guard (0..<3).allSatisfy({ low[$0] <= high[$0] }) else {
                count = 0
                return
            }
            var total = 0
            for r in low[0]...high[0] {
                for g in low[1]...high[1] {
                    for b in low[2]...high[2] { total += histogram[MedianCut.index(r, g, b)] }
                }
            }
            count = total
        }

        var volume: Int { (high[0] - low[0] + 1) * (high[1] - low[1] + 1) * (high[2] - low[2] + 1) }

        /// The mean of its pixels' bucket centres (truncated, as node-vibrant); an empty box's centre.
        var average: (r: Double, g: Double, b: Double) {
            var total = 0, sums = [0.0, 0.0, 0.0]
            if count > 0 {
                for r in low[0]...high[0] {
                    for g in low[1]...high[1] {
                        for b in low[2]...high[2] {
                            let h = histogram[MedianCut.index(r, g, b)]
                            guard h > 0 else { continue }
                            total += h
                            for (channel, bucket) in [r, g, b].enumerated() {
                                sums[channel] += Double(h) * (Double(bucket) + 0.5) * 8
                            }
                        }
                    }
                }
            }
            func mean(_ channel: Int) -> Double {
                total > 0 ? (sums[channel] / Double(total)).rounded(.towardZero)
                    : (Double(8 * (low[channel] + high[channel] + 1)) / 2).rounded(.towardZero)
            }
            return (mean(0), mean(1), mean(2))
        }

        /// Two boxes cut at the median of the longest side, node-vibrant's `split`; one copy for a single pixel.
        func split() -> [Box] {
            guard count > 0 else { return [] }
            guard count > 1 else { return [self] }
            let widths = (0..<3).map { high[$0] - low[$0] + 1 }
            let widest = widths.max() ?? 0
            let axis = widths[0] == widest ? 0 : widths[1] == widest ? 1 : 2
            var accumulated = [Int](repeating: 0, count: high[axis] + 1), total = 0
            for plane in low[axis]...high[axis] {
                var sum = 0
                var slab = (low: low, high: high)
                slab.low[axis] = plane
                slab.high[axis] = plane
                for r in slab.low[0]...slab.high[0] {
                    for g in slab.low[1]...slab.high[1] {
                        for b in slab.low[2]...slab.high[2] { sum += histogram[MedianCut.index(r, g, b)] }
                    }
                }
                total += sum
                accumulated[plane] = total
            }
            var splitPoint = -1
            var reverse = [Int](repeating: 0, count: accumulated.count)
            for (i, d) in accumulated.enumerated() where d != 0 {
                if splitPoint < 0, Double(d) > Double(total) / 2 { splitPoint = i }
                reverse[i] = total - d
            }
            let d1 = low[axis]
            var d2 = high[axis]
            let left = splitPoint - d1, right = d2 - splitPoint
            if left <= right {
                d2 = max(0, min(d2 - 1, Int((Double(splitPoint) + Double(right) / 2).rounded(.towardZero))))
            } else {
                d2 = min(high[axis], max(d1, Int((Double(splitPoint) - 1 - Double(left) / 2).rounded(.towardZero))))
            }
            func filled(_ at: Int) -> Bool { at >= 0 && at < accumulated.count && accumulated[at] != 0 }
            while !filled(d2), d2 < accumulated.count { d2 += 1 }
            var c2 = d2 < reverse.count ? reverse[d2] : 0
            while c2 == 0, filled(d2 - 1) {
                d2 -= 1
                c2 = reverse[d2]
            }
            var firstHigh = high, secondLow = low
            firstHigh[axis] = d2
            secondLow[axis] = d2 + 1
            return [Box(low: low, high: firstHigh, histogram: histogram),
                    Box(low: secondLow, high: high, histogram: histogram)]
        }
    }
}
