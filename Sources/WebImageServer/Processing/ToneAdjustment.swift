import WebImage

/// imgproxy Pro's tone options (`brightness`, `contrast`, `saturation`, `monochrome`, `duotone`) as pixel
/// operations. imgproxy Pro's code is closed: each follows the libvips operation it names, so that results
/// match libvips to within rounding. Every one returns straight-alpha RGBA8 (16-bit input is converted first)
/// and leaves alpha as it is.
enum ToneAdjustment {
    /// imgproxy's `monochrome` colour when none is given.
    static let monochromeColor = RGBAColor(red: 0xB3, green: 0xB3, blue: 0xB3)

    /// Each of R, G, B plus `b` (clamped to -255…255), clamped to 0…255: libvips' `linear(1, b)`.
    static func brightness(_ pixels: PixelBuffer, by b: Int) -> PixelBuffer {
        let offset = min(max(b, -255), 255)
        let channel = (0..<256).map { UInt8(min(max($0 + offset, 0), 255)) }
        return PixelRows.mapped(pixels, through: channel + channel + channel)
    }

    /// Each of R, G, B as (v − 128) × `c` + 128, rounded and clamped: libvips' `linear(c, 128 × (1 − c))`.
    /// A negative `c` counts as 0 (every channel 128), NaN or infinity as 1.
    static func contrast(_ pixels: PixelBuffer, factor c: Double) -> PixelBuffer {
        let factor = c.isFinite ? max(0, c) : 1
        let channel = (0..<256).map { PixelRows.byte((Double($0) - 128) * factor + 128) }
        return PixelRows.mapped(pixels, through: channel + channel + channel)
    }

    /// Each pixel's luma Y (``luma``) times `color` / 255 per channel, blended with the pixel by `i` (clamped
    /// to 0…1; 1: all monochrome, 0: unchanged). The same as ``duotone`` from black to `color`.
    static func monochrome(_ pixels: PixelBuffer, intensity i: Double,
                           color: RGBAColor = monochromeColor) -> PixelBuffer {
        duotone(pixels, intensity: i, dark: .black, light: color)
    }

    /// Each pixel's luma Y (``luma``) mapped linearly per channel from `dark` (Y = 0) to `light` (Y = 255),
    /// blended with the pixel by `i` (clamped to 0…1): each channel rounded from v + (palette − v) × i.
    static func duotone(_ pixels: PixelBuffer, intensity i: Double,
                        dark: RGBAColor = .black, light: RGBAColor = .white) -> PixelBuffer {
        let weight = PixelRows.unit(i)
        guard weight > 0 else { return pixels.converted(to: .rgba8) }
        // The palette per channel and luma value: red's 256 entries, then green's, then blue's.
        let ends = [(dark.red, light.red), (dark.green, light.green), (dark.blue, light.blue)]
        let palette = ends.flatMap { low, high in
            (0..<256).map { Double(low) + (Double(high) - Double(low)) * Double($0) / 255 }
        }
        let weights = LumaWeights.shared
        return palette.withUnsafeBufferPointer { palette in
            PixelRows.edited(pixels) { row, _ in
                var i = 0
                while i < row.count {
                    let y = Int(weights.luma(row[i], row[i + 1], row[i + 2]))
                    for channel in 0..<3 {
                        let value = Double(row[i + channel])
                        row[i + channel] = PixelRows.byte(value + (palette[channel * 256 + y] - value) * weight)
                    }
                    i += 4
                }
            }
        }
    }

    /// The grey libvips' `colourspace("b-w")` gives an 8-bit sRGB colour: linear light
    /// Y = 0.2126 R + 0.7152 G + 0.0722 B (Rec. 709 weights on the sRGB-decoded channels), encoded back to
    /// 8-bit sRGB as libvips does (``SRGBCurve``). The same as pyvips 8.18.7 on 4,000 random colours and
    /// every grey.
    static func luma(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        LumaWeights.shared.luma(red, green, blue)
    }
}

/// Each 8-bit value's share of linear luma per channel, and the encoding back: four lookups a pixel.
private struct LumaWeights {
    static let shared = LumaWeights()

    let curve = SRGBCurve.shared
    let red = SRGBCurve.shared.linear.map { 0.2126 * $0 }
    let green = SRGBCurve.shared.linear.map { 0.7152 * $0 }
    let blue = SRGBCurve.shared.linear.map { 0.0722 * $0 }

    @inline(__always)
    func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        curve.encoded(red[Int(r)] + green[Int(g)] + blue[Int(b)])
    }
}
