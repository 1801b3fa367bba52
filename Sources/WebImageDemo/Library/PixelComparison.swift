import Foundation
import WebImage

/// How close two rasters of the same size are, the measures the demo's checks use.
enum PixelComparison {
    /// Whether `a` and `b` are identical: equal alpha everywhere, equal RGB wherever alpha is not 0.
    static func isLossless(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
        guard a.size == b.size else { return false }
        let x = a.converted(to: .rgba8).bytes, y = b.converted(to: .rgba8).bytes
        var i = 0
        while i < x.count {
            if x[i + 3] != y[i + 3] { return false }
            if x[i + 3] != 0, x[i] != y[i] || x[i + 1] != y[i + 1] || x[i + 2] != y[i + 2] { return false }
            i += 4
        }
        return true
    }

    /// Peak signal-to-noise ratio in dB over premultiplied RGBA (so hidden colour under alpha 0 does not count);
    /// `.infinity` for identical rasters, 0 for different sizes.
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        guard a.size == b.size else { return 0 }
        let x = a.converted(to: .rgba8).bytes, y = b.converted(to: .rgba8).bytes
        var squared = 0.0
        var i = 0
        while i < x.count {
            let ax = Double(x[i + 3]), ay = Double(y[i + 3])
            for c in 0..<3 {
                let d = Double(x[i + c]) * ax / 255 - Double(y[i + c]) * ay / 255
                squared += d * d
            }
            squared += (ax - ay) * (ax - ay)
            i += 4
        }
        let mse = squared / Double(x.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
