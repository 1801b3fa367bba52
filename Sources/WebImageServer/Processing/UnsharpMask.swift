import WebImage

/// imgproxy Pro's unsharp masking: each colour pushed away from its eight neighbours', `weight` / `divider` of
/// the difference to each — the 3 × 3 convolution [−w −w −w; −w D+8w −w; −w −w −w] / D (a larger weight or a
/// smaller divider sharpens more). Edges repeat their pixels; alpha is unchanged. imgproxy Pro's own filter is
/// closed: this is our reading of its two numbers.
enum UnsharpMask {
    static func apply(_ pixels: PixelBuffer, weight: Double, divider: Double) -> PixelBuffer {
        let source = pixels.converted(to: .rgba8)
        let strength = weight / divider
        guard strength.isFinite, strength > 0 else { return source }
        let width = source.width, height = source.height, rowBytes = width * 4
        return source.withUnsafeBytes { raw in
            PixelRows.edited(source) { row, y in
                let above = max(0, y - 1) * rowBytes, here = y * rowBytes, below = min(height - 1, y + 1) * rowBytes
                for x in 0..<width {
                    let left = max(0, x - 1) * 4, centre = x * 4, right = min(width - 1, x + 1) * 4
                    for channel in 0..<3 {
                        var neighbours = 0
                        for line in [above, here, below] {
                            neighbours += Int(raw[line + left + channel]) + Int(raw[line + centre + channel])
                                + Int(raw[line + right + channel])
                        }
                        let value = Double(raw[here + centre + channel])
                        // The eight neighbours: the nine summed, less the centre.
                        let difference = 9 * value - Double(neighbours)
                        row[centre + channel] = PixelRows.byte(value + strength * difference)
                    }
                }
            }
        }
    }
}
