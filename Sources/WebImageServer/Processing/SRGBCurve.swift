import Foundation

/// The sRGB transfer function (IEC 61966-2-1) as libvips applies it to 8-bit images: a table of linear light
/// for each value, and libvips' way back (`vips_col_scRGB2sRGB_8`, `vips_col_scRGB2BW_8`), a 256-step table
/// of rounded values interpolated linearly. Following it and not the exact curve makes `b-w` greys the same
/// as libvips' to the value. No `pow` per pixel.
struct SRGBCurve: Sendable {
    static let shared = SRGBCurve()

    /// Linear light (0…1) of each 8-bit sRGB value.
    let linear: [Double]
    /// The 8-bit value, rounded, of linear light `i / 255` for `i` in 0…255, and the last again: the
    /// interpolation reads one entry past its step.
    private let steps: [Double]

    private init() {
        linear = (0..<256).map { value in
            let v = Double(value) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        steps = (0...256).map { index in
            let y = Double(min(index, 255)) / 255
            let v = y <= 0.003_130_8 ? y * 12.92 : 1.055 * pow(y, 1 / 2.4) - 0.055
            return (v * 255).rounded()
        }
    }

    /// The 8-bit sRGB value of linear light `y`, clipped to 0…1 first (out-of-gamut light clips per channel,
    /// as libvips does).
    @inline(__always)
    func encoded(_ y: Double) -> UInt8 {
        let position = min(max(y * 255, 0), 255)
        let index = Int(position), low = steps[index]
        return UInt8((low + (steps[index + 1] - low) * (position - Double(index))).rounded())
    }
}
