import Foundation

/// How much each cell of a ``ColourGrid`` would catch the eye, by libvips' `attention` measure (itself from
/// smartcrop.js): edges, plus skin tone and redness where the cell is not dark.
enum AttentionScore {
    /// The direction in CIE XYZ (unnormalised) that counts as skin (smartcrop.js).
    private static let skin = (x: 0.78, y: 0.57, z: 0.44)
    /// D65 white in XYZ, 0–100, for CIELAB.
    private static let white = (x: 95.047, y: 100.0, z: 108.883)
    /// Cells whose luminance Y (0–100) is at most this have no skin or saturation score.
    private static let darkLimit = 5.0

    /// Each cell's score: |5 × Laplacian of Y| + skin likeness (100 at the skin direction, falling by 100 per
    /// unit of distance) + CIELAB a*, the last two zero in dark cells.
    static func interest(of grid: ColourGrid) -> ScorePlane {
        let xyz = (0..<grid.width * grid.height).map { cell in
            XYZ(red: grid.rgb[cell * 3], green: grid.rgb[cell * 3 + 1], blue: grid.rgb[cell * 3 + 2])
        }
        let luminance = ScorePlane(width: grid.width, height: grid.height, values: xyz.map(\.y))
        var scores = luminance.laplacianMagnitude()
        for (cell, colour) in xyz.enumerated() where colour.y > darkLimit {
            scores.values[cell] += skinLikeness(colour) + redness(colour)
        }
        return scores
    }

    private static func skinLikeness(_ c: XYZ) -> Double {
        let length = (c.x * c.x + c.y * c.y + c.z * c.z).squareRoot()
        let dx = c.x / length - skin.x, dy = c.y / length - skin.y, dz = c.z / length - skin.z
        return 100 - 100 * (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// CIELAB a* (positive for red and magenta, negative for green), white-relative values clipped at white.
    private static func redness(_ c: XYZ) -> Double {
        500 * (labCurve(c.x / white.x) - labCurve(c.y / white.y))
    }

    private static func labCurve(_ ratio: Double) -> Double {
        let t = min(max(ratio, 0), 1)
        return t < 0.008856 ? 7.787 * t + 16.0 / 116.0 : cbrt(t)
    }

    /// CIE XYZ (D65, Y 0–100) of an sRGB colour given 0–255.
    private struct XYZ {
        var x, y, z: Double

        init(red: Double, green: Double, blue: Double) {
            let r = Self.linear(red), g = Self.linear(green), b = Self.linear(blue)
            x = 100 * (0.4124 * r + 0.3576 * g + 0.1805 * b)
            y = 100 * (0.2126 * r + 0.7152 * g + 0.0722 * b)
            z = 100 * (0.0193 * r + 0.1192 * g + 0.9505 * b)
        }

        /// The sRGB transfer function undone.
        private static func linear(_ value: Double) -> Double {
            let v = value / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
    }
}
