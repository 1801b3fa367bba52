/// A raster in premultiplied float RGBA (0…1), the space every transformer does its arithmetic in, so
/// blending and filtering leave no dark fringes around transparent pixels.
struct PremultipliedRaster {
    let width: Int
    let height: Int
    var pixels: [SIMD4<Float>]

    init(width: Int, height: Int, fill: SIMD4<Float> = .zero) {
        self.width = width
        self.height = height
        pixels = Array(repeating: fill, count: width * height)
    }

    init(_ buffer: PixelBuffer) {
        let source = buffer.converted(to: .rgba8)
        width = source.width
        height = source.height
        pixels = source.withUnsafeBytes { raw in
            (0..<source.width * source.height).map { i in
                let a = Float(raw[i * 4 + 3]) / 255
                return SIMD4(Float(raw[i * 4]) / 255 * a, Float(raw[i * 4 + 1]) / 255 * a,
                             Float(raw[i * 4 + 2]) / 255 * a, a)
            }
        }
    }

    subscript(x: Int, y: Int) -> SIMD4<Float> {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Bilinear sample at a position in pixel units (pixel centres at +0.5); transparent outside.
    func sample(x: Double, y: Double) -> SIMD4<Float> {
        // Snap positions that are a rounding error away from a pixel centre (exact 90° turns, flips).
        func snap(_ v: Double) -> Double { abs(v - v.rounded()) < 1e-6 ? v.rounded() : v }
        let fx = snap(x - 0.5), fy = snap(y - 0.5)
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        func at(_ px: Int, _ py: Int) -> SIMD4<Float> {
            px >= 0 && py >= 0 && px < width && py < height ? self[px, py] : .zero
        }
        let top = at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx
        let bottom = at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx
        return top * (1 - ty) + bottom * ty
    }

    /// Back to straight 8-bit RGBA.
    func pixelBuffer() -> PixelBuffer {
        PixelBuffer(width: width, height: height, format: .rgba8) { out in
            for (i, p) in pixels.enumerated() {
                let a = min(max(p.w, 0), 1)
                let rgb = a > 0 ? p / a : .zero
                out[i * 4] = Self.byte(rgb.x)
                out[i * 4 + 1] = Self.byte(rgb.y)
                out[i * 4 + 2] = Self.byte(rgb.z)
                out[i * 4 + 3] = Self.byte(a)
            }
        }
    }

    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(max(value * 255 + 0.5, 0), 255))
    }
}

extension RGBAColor {
    /// Premultiplied 0…1 components.
    var premultiplied: SIMD4<Float> {
        let a = Float(alpha) / 255
        return SIMD4(Float(red) / 255 * a, Float(green) / 255 * a, Float(blue) / 255 * a, a)
    }

    /// `#aarrggbb`, lowercase: SDWebImage's `sd_hexString`, used in transformer keys.
    var keyHex: String {
        "#" + [alpha, red, green, blue].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
