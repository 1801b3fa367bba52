import Foundation

/// The window of Wang et al.'s SSIM (2004): a Gaussian of σ = 1.5 over 11 taps, normalised to sum 1 and applied
/// separably, the image mirrored past its edges. Rows are blurred with a padded copy and columns by
/// weighted sums of whole rows, so both loops run over contiguous memory.
struct GaussianWindow: Sendable {
    static let ssim = GaussianWindow(sigma: 1.5, radius: 5)

    let radius: Int
    /// e^(−k²/2σ²) for k = −radius…radius, over their sum.
    let weights: [Double]

    var taps: Int { weights.count }

    init(sigma: Double, radius: Int) {
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        self.radius = radius
        weights = raw.map { $0 / total }
    }

    /// The index in `0..<length` read at each position `-radius ..< length + radius`: half-sample symmetric
    /// (… c b a | a b c …), repeated for a length under the radius.
    func mirroredIndices(_ length: Int) -> [Int] {
        (-radius ..< length + radius).map { position in
            let folded = (position % (2 * length) + 2 * length) % (2 * length)
            return folded < length ? folded : 2 * length - 1 - folded
        }
    }

    /// `out[i] = Σₖ weights[k] · source[indices[i + k]]` for `i` in `0..<count`: one row blurred, read through
    /// ``mirroredIndices(_:)`` of `count` into `padded` (`count + 2 × radius` values) first.
    func blurRow(_ source: UnsafePointer<Double>, through indices: UnsafeBufferPointer<Int>,
                 padded: UnsafeMutablePointer<Double>, into out: UnsafeMutablePointer<Double>, count: Int) {
        for j in 0..<indices.count { padded[j] = source[indices[j]] }
        out.update(repeating: 0, count: count)
        weights.withUnsafeBufferPointer { weights in
            for k in 0..<weights.count {
                let weight = weights[k], shifted = padded + k
                for i in 0..<count { out[i] += weight * shifted[i] }
            }
        }
    }

    /// `out[i] = Σₖ weights[k] · row(k)[i]` for `i` in `0..<count`: one column step, `row(k)` the already
    /// row-blurred line under tap `k`.
    func sumColumns(into out: UnsafeMutablePointer<Double>, count: Int, row: (Int) -> UnsafePointer<Double>) {
        out.update(repeating: 0, count: count)
        weights.withUnsafeBufferPointer { weights in
            for k in 0..<weights.count {
                let weight = weights[k], line = row(k)
                for i in 0..<count { out[i] += weight * line[i] }
            }
        }
    }
}
