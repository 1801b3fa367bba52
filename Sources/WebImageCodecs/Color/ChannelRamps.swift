/// The colours the table conversions are checked on against lcms2 before they are used: each channel in turn
/// through every level given, the other two at every pair of a few levels evenly spread from 0 to full scale.
/// A grid alone misses the levels between its points, and a steep curve (x^0.3 in the shadows) can hide errors
/// of tens of levels there.
enum ChannelRamps {
    /// RGBA pixels, alpha full; `others` (at least 2) levels for the other channels.
    static func rgba<Sample: FixedWidthInteger & UnsignedInteger>(levels: [Sample], others count: Int) -> [Sample] {
        let full = Int(Sample.max)
        let others = (0..<count).map { Sample(min(full, $0 * (full + 1) / (count - 1))) }
        var pixels = [Sample](repeating: .max, count: 3 * count * count * levels.count * 4)
        var index = 0
        for channel in 0..<3 {
            // The two other channels' positions in a pixel.
            let (a, b) = channel == 0 ? (1, 2) : channel == 1 ? (0, 2) : (0, 1)
            for first in others {
                for second in others {
                    for level in levels {
                        pixels[index + channel] = level
                        pixels[index + a] = first
                        pixels[index + b] = second
                        index += 4
                    }
                }
            }
        }
        return pixels
    }
}
