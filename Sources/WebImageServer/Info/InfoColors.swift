import CImageQuant
import WebImage

/// The colour options that read every pixel of a straight RGBA8 raster: `average`, `palette` and `alpha`'s
/// transparency check.
enum InfoColors {
    /// The mean of each channel, rounded; with `ignoringTransparent`, over the pixels whose alpha is not 0 (all
    /// zero when every pixel is).
    static func average(_ pixels: PixelBuffer, ignoringTransparent: Bool) -> RGBAValue {
        var sums = [0, 0, 0, 0], counted = 0
        pixels.withUnsafeBytes { raw in
            for at in stride(from: 0, to: pixels.width * pixels.height * 4, by: 4) {
                if ignoringTransparent, raw[at + 3] == 0 { continue }
                counted += 1
                for channel in 0..<4 { sums[channel] += Int(raw[at + channel]) }
            }
        }
        guard counted > 0 else { return RGBAValue(r: 0, g: 0, b: 0, a: 0) }
        let mean = sums.map { Int((Double($0) / Double(counted)).rounded()) }
        return RGBAValue(r: mean[0], g: mean[1], b: mean[2], a: mean[3])
    }

    /// Whether any pixel's alpha is below full.
    static func isTransparent(_ pixels: PixelBuffer) -> Bool {
        pixels.withUnsafeBytes { raw in
            stride(from: 3, to: pixels.width * pixels.height * 4, by: 4).contains { raw[$0] < 255 }
        }
    }

    /// libimagequant's palette of at most `colors` (2…256) entries, in its order.
    static func palette(_ pixels: PixelBuffer, colors: Int) throws(ProxyError) -> [RGBAValue] {
        let failure = ProxyError.unprocessable("the palette cannot be built")
        guard let attributes = liq_attr_create() else { throw failure }
        defer { liq_attr_destroy(attributes) }
        guard liq_set_max_colors(attributes, Int32(colors)) == LIQ_OK else { throw failure }
        let entries: [liq_color]? = pixels.withUnsafeBytes { raw in
            guard let base = raw.baseAddress,
                  let image = liq_image_create_rgba(attributes, base, Int32(pixels.width), Int32(pixels.height), 0) else {
                return nil
            }
            defer { liq_image_destroy(image) }
            var quantized: OpaquePointer?
            guard liq_image_quantize(image, attributes, &quantized) == LIQ_OK, let result = quantized,
                  let palette = liq_get_palette(result) else { return nil }
            defer { liq_result_destroy(result) }
            return withUnsafeBytes(of: palette.pointee.entries) {
                Array($0.bindMemory(to: liq_color.self).prefix(Int(palette.pointee.count)))
            }
        }
        guard let entries else { throw failure }
        return entries.map { RGBAValue(r: Int($0.r), g: Int($0.g), b: Int($0.b), a: Int($0.a)) }
    }
}
