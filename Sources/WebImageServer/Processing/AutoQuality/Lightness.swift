import Foundation

/// The one channel ``DSSIM`` compares: CIE L* (D65) over 100, of each pixel composited onto white in linear light.
enum Lightness {
    /// Writes the lightness of `count` straight-alpha RGBA8 pixels from `rgba` into `out`, through the sRGB
    /// curve's `linear` table (``SRGBCurve/linear``).
    static func fill(_ rgba: UnsafePointer<UInt8>, count: Int, linear: UnsafePointer<Double>,
                     into out: UnsafeMutablePointer<Double>) {
        for i in 0..<count {
            let pixel = rgba + 4 * i
            let luminance = 0.2126 * linear[Int(pixel[0])] + 0.7152 * linear[Int(pixel[1])]
                + 0.0722 * linear[Int(pixel[2])]
            let alpha = Double(pixel[3]) / 255
            out[i] = lightness(alpha * luminance + (1 - alpha))
        }
    }

    /// L* / 100 of relative luminance `y` (0…1): the cube root above (6/29)³, the straight line below it.
    @inline(__always)
    static func lightness(_ y: Double) -> Double {
        y > 216.0 / 24389 ? (116 * cbrt(y) - 16) / 100 : 24389.0 / 27 * y / 100
    }
}
