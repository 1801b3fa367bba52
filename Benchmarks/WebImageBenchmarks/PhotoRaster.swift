import Foundation
import WebImage

/// A deterministic photo-like raster shared by the codec suites.
enum PhotoRaster {
    /// Gradients and waves plus grain, so the codecs work about as hard as on a photo; opaque RGBA8.
    static func make(width: Int, height: Int) -> PixelBuffer {
        var state: UInt32 = 12345
        return PixelBuffer(width: width, height: height, format: .rgba8) { out in
            for y in 0..<height {
                let fy = Double(y) / Double(height)
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    let noise = Double(state >> 27) - 16
                    let fx = Double(x) / Double(width)
                    let i = (y * width + x) * 4
                    out[i] = clamp(128 + 100 * sin(fx * 9 + fy * 3) + noise)
                    out[i + 1] = clamp(60 + 150 * fy + 30 * cos(fx * 17) + noise)
                    out[i + 2] = clamp(200 - 120 * fx * fy + 25 * sin(fy * 23) + noise)
                    out[i + 3] = 255
                }
            }
        }
    }

    private static func clamp(_ value: Double) -> UInt8 {
        UInt8(min(255, max(0, value.rounded())))
    }
}
