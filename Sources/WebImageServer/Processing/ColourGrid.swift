import Foundation
import WebImage

/// A small raster of sRGB colours (0–255, alpha premultiplied, so transparent areas count as black), the
/// image as `AttentionCrop` scores it.
struct ColourGrid {
    let width: Int
    let height: Int
    /// Red, green, blue of each cell, rows top to bottom.
    var rgb: [Double]

    /// `pixels` reduced (or enlarged) to `side × side` as `vips_resize` does it: an integer box shrink to
    /// about twice the target first, then Lanczos 3 for the rest, vertically then horizontally, each stage
    /// rounded to whole 8-bit levels as libvips' are for 8-bit images (so a flat image stays exactly flat).
    static func reduced(_ pixels: PixelBuffer, toSide side: Int) -> ColourGrid {
        // libvips' resize leaves at least half the reduction to the kernel (its "gap" of 2).
        let factor = (x: max(1, pixels.width / (2 * side)), y: max(1, pixels.height / (2 * side)))
        let ratio = (x: Double(pixels.width) / Double(side * factor.x),
                     y: Double(pixels.height) / Double(side * factor.y))
        let shrunk = boxShrunk(pixels, by: factor).quantised()
        let tall = shrunk.transposed().resampled(width: side, ratio: ratio.y).transposed().quantised()
        return tall.resampled(width: side, ratio: ratio.x).quantised()
    }

    /// Every value rounded to a whole level and clipped to 0–255 (Lanczos overshoots near sharp edges).
    func quantised() -> ColourGrid {
        ColourGrid(width: width, height: height, rgb: rgb.map { min(max($0.rounded(), 0), 255) })
    }

    /// This grid with its columns as rows, so one horizontal pass serves both axes.
    func transposed() -> ColourGrid {
        var out = [Double](repeating: 0, count: rgb.count)
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 { out[(x * height + y) * 3 + c] = rgb[(y * width + x) * 3 + c] }
            }
        }
        return ColourGrid(width: height, height: width, rgb: out)
    }

    /// Each row resampled to `width` cells with a Lanczos 3 kernel, output cell centres `ratio` input cells
    /// apart (widened by `ratio` when it shrinks), edges extended by copying.
    func resampled(width target: Int, ratio: Double) -> ColourGrid {
        let taps = (0..<target).map { Self.lanczosTaps(centre: (Double($0) + 0.5) * ratio - 0.5,
                                                       scale: max(1, ratio), count: width) }
        var out = [Double](repeating: 0, count: target * height * 3)
        for y in 0..<height {
            for (x, row) in taps.enumerated() {
                for (index, weight) in row {
                    for c in 0..<3 { out[(y * target + x) * 3 + c] += weight * rgb[(y * width + index) * 3 + c] }
                }
            }
        }
        return ColourGrid(width: target, height: height, rgb: out)
    }

    /// The normalised Lanczos 3 weights of one output cell centred at `centre`, indices clamped to the row.
    private static func lanczosTaps(centre: Double, scale: Double, count: Int) -> [(index: Int, weight: Double)] {
        let reach = 3 * scale
        let first = Int((centre - reach).rounded(.down)) + 1, last = Int((centre + reach).rounded(.up)) - 1
        var taps = (first...max(first, last)).map { i in
            (index: min(max(0, i), count - 1), weight: lanczos3((Double(i) - centre) / scale))
        }
        let total = taps.reduce(0) { $0 + $1.weight }
        for i in taps.indices { taps[i].weight /= total }
        return taps
    }

    private static func lanczos3(_ x: Double) -> Double {
        guard x != 0 else { return 1 }
        guard abs(x) < 3 else { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}
