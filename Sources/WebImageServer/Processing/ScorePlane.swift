import Foundation

/// One value per cell of a small grid, rows top to bottom: `AttentionCrop`'s luminance and scores. Every
/// neighbourhood operation extends the edges by copying, as libvips' convolutions do.
struct ScorePlane {
    let width: Int
    let height: Int
    var values: [Double]

    /// The cell at (x, y), coordinates clamped into the grid.
    func clamped(_ x: Int, _ y: Int) -> Double {
        values[min(max(0, y), height - 1) * width + min(max(0, x), width - 1)]
    }

    /// |5 × the 4-neighbour Laplacian|: how sharply each cell differs from those around it.
    func laplacianMagnitude() -> ScorePlane {
        var out = values
        for y in 0..<height {
            for x in 0..<width {
                let around = clamped(x - 1, y) + clamped(x + 1, y) + clamped(x, y - 1) + clamped(x, y + 1)
                out[y * width + x] = abs(5 * (4 * clamped(x, y) - around))
            }
        }
        return ScorePlane(width: width, height: height, values: out)
    }

    /// A separable Gaussian blur with libvips' default integer mask (`vips_gaussblur`): weights
    /// `rint(20 · e^(−d²/2σ²))` out to the last one whose unrounded value is at least 0.2, normalised by their sum.
    func blurred(sigma: Double) -> ScorePlane {
        let mask = Self.gaussianMask(sigma: sigma)
        return convolvedRows(mask).transposed().convolvedRows(mask).transposed()
    }

    /// The first cell, in reading order, holding the largest value.
    func firstMaximum() -> (x: Int, y: Int) {
        var best = 0
        for i in values.indices where values[i] > values[best] { best = i }
        return (best % width, best / width)
    }

    static func gaussianMask(sigma: Double) -> [Double] {
        let twoSigmaSquared = 2 * sigma * sigma
        var reach = 0
        while reach < Int(8 * sigma), exp(-Double(reach * reach) / twoSigmaSquared) >= 0.2 { reach += 1 }
        let half = max(reach - 1, 0)
        return (-half...half).map { (20 * exp(-Double($0 * $0) / twoSigmaSquared)).rounded(.toNearestOrEven) }
    }

    private func convolvedRows(_ mask: [Double]) -> ScorePlane {
        let half = mask.count / 2, total = mask.reduce(0, +)
        var out = values
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0
                for (k, weight) in mask.enumerated() { sum += weight * clamped(x + k - half, y) }
                out[y * width + x] = sum / total
            }
        }
        return ScorePlane(width: width, height: height, values: out)
    }

    private func transposed() -> ScorePlane {
        var out = values
        for y in 0..<height {
            for x in 0..<width { out[x * height + y] = values[y * width + x] }
        }
        return ScorePlane(width: height, height: width, values: out)
    }
}
