import Foundation
import WebImageCore

/// Synthetic rasters and comparisons for the WebP tests, built in code so no tool is needed at test time.
enum WebPTestImages {
    /// A smooth, photo-like raster (gradients and soft waves, plus fine noise) with an optional alpha ramp.
    static func photo(width: Int, height: Int, alpha: Bool = false, seed: UInt32 = 1) -> PixelBuffer {
        var state = seed
        return PixelBuffer(width: width, height: height, format: .rgba8) { out in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Double(state >> 28) - 8
                    let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
                    let r = 128 + 100 * sin(fx * 6.3 + fy * 2) + noise
                    let g = 60 + 150 * fy + 30 * cos(fx * 9) + noise
                    let b = 200 - 120 * fx * fy + 20 * sin(fy * 13) + noise
                    let i = (y * width + x) * 4
                    out[i] = clamp(r)
                    out[i + 1] = clamp(g)
                    out[i + 2] = clamp(b)
                    out[i + 3] = alpha ? clamp(255 * (1 - fx)) : 255
                }
            }
        }
    }

    /// A raster of one colour.
    static func solid(width: Int, height: Int, _ rgba: [UInt8]) -> PixelBuffer {
        PixelBuffer(width: width, height: height, format: .rgba8,
                    bytes: Array((0..<width * height).map { _ in rgba }.joined()))
    }

    /// Peak signal-to-noise ratio over the colour channels, in dB (infinity when identical).
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.size == b.size)
        var sum = 0.0, count = 0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a.bytes[i + c]) - Double(b.bytes[i + c])
                sum += d * d
            }
            count += 3
        }
        guard sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(count)))
    }

    private static func clamp(_ value: Double) -> UInt8 {
        UInt8(min(255, max(0, value.rounded())))
    }
}
