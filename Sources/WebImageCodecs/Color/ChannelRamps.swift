/// The colours the table conversions are checked on against lcms2 before they are used: each channel in turn
/// through every level given, the other two at every pair of a few levels evenly spread from 0 to full scale.
/// A grid alone misses the levels between its points, and a steep curve (x^0.3 in the shadows) can hide errors
/// of tens of levels there.
enum ChannelRamps {
    /// RGBA pixels, alpha full; `others` (at least 2) levels for the other channels.
    static func rgba<Sample: FixedWidthInteger & UnsignedInteger>(levels: [Sample], others count: Int) -> [Sample] {
        let full = Int(Sample.max)
        let others = (0..<count).map { Sample(min(full, $0 * (full + 1) / (count - 1))) }
        var pixels: [Sample] = []
        pixels.reserveCapacity(3 * others.count * others.count * levels.count * 4)
        for channel in 0..<3 {
            for first in others {
                for second in others {
                    for level in levels {
                        switch channel {
                        case 0: pixels += [level, first, second, .max]
                        case 1: pixels += [first, level, second, .max]
                        default: pixels += [first, second, level, .max]
                        }
                    }
                }
            }
        }
        return pixels
    }
}
