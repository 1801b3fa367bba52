import CImageQuant
import WebImageCore

/// Palette PNGs (colour type 3) for ``ImageEncodeTuning/pngQuantizeColors``: libimagequant picks at most that
/// many colours and remaps the image with its Floyd–Steinberg dithering (pngquant's, and libvips' for imgproxy),
/// alpha included: entries with alpha go into `tRNS`. Indices take the fewest bits the palette needs (1, 2, 4
/// or 8, as libvips writes them); rows are unfiltered, as PNG advises for palette images.
enum PNGPaletteWriter {
    /// A palette PNG of an RGBA8 raster with at most `colors` (2…256) entries.
    static func write(_ pixels: PixelBuffer, colors: Int, interlaced: Bool, level: Int32) throws -> [UInt8] {
        guard let attributes = liq_attr_create() else { throw failure("out of memory") }
        defer { liq_attr_destroy(attributes) }
        guard liq_set_max_colors(attributes, Int32(min(256, max(2, colors)))) == LIQ_OK else {
            throw failure("the colour count was refused")
        }
        let width = pixels.width, height = pixels.height
        return try pixels.withUnsafeBytes { raw -> [UInt8] in
            guard let base = raw.baseAddress,
                  let image = liq_image_create_rgba(attributes, base, Int32(width), Int32(height), 0) else {
                throw failure("the image was refused")
            }
            defer { liq_image_destroy(image) }
            var quantized: OpaquePointer?
            guard liq_image_quantize(image, attributes, &quantized) == LIQ_OK, let result = quantized else {
                throw failure("quantisation failed")
            }
            defer { liq_result_destroy(result) }
            liq_set_dithering_level(result, 1)
            var indices = [UInt8](repeating: 0, count: width * height)
            let remapped = indices.withUnsafeMutableBytes {
                liq_write_remapped_image(result, image, $0.baseAddress!, $0.count)
            }
            guard remapped == LIQ_OK, let palette = liq_get_palette(result) else { throw failure("remapping failed") }
            let entries = withUnsafeBytes(of: palette.pointee.entries) {
                Array($0.bindMemory(to: liq_color.self).prefix(Int(palette.pointee.count)))
            }
            var chunks = [(PNGChunkType.PLTE, entries.flatMap { [$0.r, $0.g, $0.b] })]
            // tRNS lists alphas up to the last entry that is not opaque.
            if let last = entries.lastIndex(where: { $0.a < 255 }) {
                chunks.append((PNGChunkType.tRNS, entries[...last].map(\.a)))
            }
            let depth = ImageEncodeTuning.pngPaletteBitDepth(colors: entries.count)
            let rows = PNGFastWriter.passes(interlaced: interlaced).flatMap {
                packedRows(indices, width: width, height: height, depth: depth, pass: $0)
            }
            return try PNGFastWriter.stream(width: width, height: height, bitDepth: UInt8(depth), colorType: 3,
                                            interlaced: interlaced, chunks: chunks, data: rows, level: level)
        }
    }

    /// Each row of `pass` as filter byte None, then its indices packed `depth` bits each, leftmost pixel in the
    /// highest bits, the last byte padded with zeros.
    private static func packedRows(_ indices: [UInt8], width: Int, height: Int, depth: Int,
                                   pass: PNGFastWriter.Pass) -> [UInt8] {
        let size = PNGFastWriter.size(of: pass, width: width, height: height)
        guard size.width > 0, size.height > 0 else { return [] }
        let rowLength = 1 + (size.width * depth + 7) / 8, perByte = 8 / depth
        var out = [UInt8](repeating: 0, count: rowLength * size.height)
        for y in 0..<size.height {
            let source = (pass.y + y * pass.dy) * width, row = y * rowLength + 1
            for x in 0..<size.width {
                let index = indices[source + pass.x + x * pass.dx]
                out[row + x / perByte] |= index << UInt8(8 - depth * (x % perByte + 1))
            }
        }
        return out
    }

    private static func failure(_ reason: String) -> WebImageError {
        .encodingFailed(format: .png, reason: "libimagequant: \(reason)")
    }
}
