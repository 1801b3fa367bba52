import Foundation
import WebImage

/// imgproxy Pro's overlay options (`colorize`, `gradient`) as pixel operations on straight-alpha RGBA8 (16-bit
/// input is converted first). The overlay's opacity is the option's opacity (clamped to 0…1) times the colour's
/// own alpha.
enum ColourOverlay {
    /// A layer of `color` at opacity `o` over the image.
    ///
    /// `keepAlpha` false: composited source-over, so the result's alpha is the composite's and transparent
    /// areas become `color` at opacity `o`. `keepAlpha` true: alpha stays the image's and each pixel's colour
    /// is mixed with `color` by `o` (v + (colour − v) × o), whatever its alpha: compositing and then restoring
    /// alpha would tint faint anti-aliased edges far more than opaque areas.
    static func colorize(_ pixels: PixelBuffer, opacity o: Double, color: RGBAColor, keepAlpha: Bool) -> PixelBuffer {
        let alpha = PixelRows.unit(o) * Double(color.alpha) / 255
        guard alpha > 0 else { return pixels.converted(to: .rgba8) }
        if keepAlpha {
            let table = [color.red, color.green, color.blue].flatMap { tint in
                (0..<256).map { PixelRows.byte(Double($0) + (Double(tint) - Double($0)) * alpha) }
            }
            return PixelRows.mapped(pixels, through: table)
        }
        let layer = Layer(color)
        return PixelRows.edited(pixels) { row, _ in
            var i = 0
            while i < row.count {
                layer.composite(over: row, at: i, alpha: alpha)
                i += 4
            }
        }
    }

    /// A gradient from transparent to `color` at opacity `o`, composited source-over (where the image is
    /// transparent the result takes the gradient's alpha; where it is opaque it stays opaque).
    ///
    /// `degrees` turn clockwise from 0, transparent at the top and opaque at the bottom; 90 is transparent at
    /// the right and opaque at the left (imgproxy's wording; ``gradientAngle(named:)`` has the named
    /// directions). Each pixel centre is projected on the direction (−sin, cos) and placed at t in 0…1 between
    /// the least and the most projected pixel centres (t = 0 throughout when the image has no extent that
    /// way); the overlay's opacity is 0 for t ≤ `start`, 1 for t ≥ `stop`, linear between, so `start` = `stop`
    /// is a step (a `stop` below `start` counts as `start`; non-finite values as 0 and 1).
    static func gradient(_ pixels: PixelBuffer, opacity o: Double, color: RGBAColor, angle degrees: Double,
                         start: Double, stop: Double) -> PixelBuffer {
        let strength = PixelRows.unit(o) * Double(color.alpha) / 255
        guard strength > 0 else { return pixels.converted(to: .rgba8) }
        let radians = (degrees.isFinite ? degrees : 0) * .pi / 180
        // Exact zeros at multiples of 90°, so that a column or row is one value of t.
        func snapped(_ value: Double) -> Double { abs(value) < 1e-12 ? 0 : value }
        let dx = snapped(-sin(radians)), dy = snapped(cos(radians))
        let across = (0.5 * dx, (Double(pixels.width) - 0.5) * dx)
        let down = (0.5 * dy, (Double(pixels.height) - 0.5) * dy)
        let low = min(across.0, across.1) + min(down.0, down.1)
        let span = max(across.0, across.1) + max(down.0, down.1) - low
        let first = start.isFinite ? start : 0
        let last = max(first, stop.isFinite ? stop : 1)
        let layer = Layer(color)
        return PixelRows.edited(pixels) { row, y in
            let rowOffset = dy * (Double(y) + 0.5) - low
            var i = 0
            while i < row.count {
                let t = span > 0 ? (dx * (Double(i / 4) + 0.5) + rowOffset) / span : 0
                let ramp = t >= last ? 1 : t <= first ? 0 : (t - first) / (last - first)
                if ramp > 0 { layer.composite(over: row, at: i, alpha: strength * ramp) }
                i += 4
            }
        }
    }

    /// imgproxy's gradient direction names as angles for ``gradient(_:opacity:color:angle:start:stop:)``:
    /// `down` 0 (top transparent), `up` 180 (bottom transparent), `left` 90 (right side transparent, left
    /// opaque), `right` 270 (left side transparent, right opaque); nil for any other name.
    static func gradientAngle(named name: String) -> Double? {
        switch name {
        case "down": 0
        case "up": 180
        case "left": 90
        case "right": 270
        default: nil
        }
    }
}

/// One colour composited source-over (straight alpha) onto pixels at a given alpha.
private struct Layer {
    let red, green, blue: Double

    init(_ color: RGBAColor) {
        (red, green, blue) = (Double(color.red), Double(color.green), Double(color.blue))
    }

    /// This colour at `alpha` (a, 0…1) over the pixel at byte `i` of `row` (v, αᵢ): alpha a + αᵢ(1 − a), each
    /// channel (c × a + v × αᵢ(1 − a)) divided by that, rounded.
    @inline(__always)
    func composite(over row: UnsafeMutableBufferPointer<UInt8>, at i: Int, alpha: Double) {
        let below = Double(row[i + 3]) / 255 * (1 - alpha)
        let total = alpha + below
        row[i] = PixelRows.byte((red * alpha + Double(row[i]) * below) / total)
        row[i + 1] = PixelRows.byte((green * alpha + Double(row[i + 1]) * below) / total)
        row[i + 2] = PixelRows.byte((blue * alpha + Double(row[i + 2]) * below) / total)
        row[i + 3] = PixelRows.byte(total * 255)
    }
}
