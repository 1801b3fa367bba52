import Foundation
import WebImage

/// pHash: the image as 32 × 32 grey (Rec. 601 luma), its 2-D DCT-II, the 8 × 8 coefficients after the first
/// row and column (the DC and the lowest frequencies of one direction left out, as pHash's `ph_dct_imagehash`),
/// each bit 1 where the coefficient is above their median; 64 bits, first coefficient highest, as 16 hex digits.
enum PerceptualHash {
    static let side = 32

    static func hash(_ pixels: PixelBuffer) -> String {
        let small = pixels.size == PixelSize(width: side, height: side) ? pixels
            : Resampler.resample(pixels, to: PixelSize(width: side, height: side))
        var grey = [Double](repeating: 0, count: side * side)
        small.withUnsafeBytes { raw in
            for index in 0..<(side * side) {
                let r = Double(raw[index * 4]), g = Double(raw[index * 4 + 1]), b = Double(raw[index * 4 + 2])
                grey[index] = 0.299 * r + 0.587 * g + 0.114 * b
            }
        }
        // cos((2n + 1) k π / 2N) for the nine lowest frequencies.
        let basis = (0...8).map { k in (0..<side).map { n in cos(Double((2 * n + 1) * k) * Double.pi / Double(2 * side)) } }
        var rows = [[Double]](repeating: [Double](repeating: 0, count: 9), count: side)
        for y in 0..<side {
            for k in 1...8 { rows[y][k] = (0..<side).reduce(0) { $0 + grey[y * side + $1] * basis[k][$1] } }
        }
        var coefficients: [Double] = []
        for v in 1...8 {
            for u in 1...8 { coefficients.append((0..<side).reduce(0) { $0 + rows[$1][u] * basis[v][$1] }) }
        }
        let sorted = coefficients.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        var bits: UInt64 = 0
        for coefficient in coefficients { bits = bits << 1 | (coefficient > median ? 1 : 0) }
        let hex = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
