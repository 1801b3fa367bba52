import WebImageCore

/// A frame reduced to a GIF palette: at most 256 colours, one index per pixel, and the transparent entry.
struct GIFIndexedFrame {
    var colors: [GIFColor]
    var indices: [UInt8]
    var transparentIndex: Int?
}

/// Reduces an 8-bit RGBA frame to at most 256 palette entries.
///
/// Pixels with alpha under 128 share one transparent entry; the others are treated as opaque. When the
/// frame has few enough colours the palette is exact (a lossless round trip); otherwise ``GIFMedianCut``
/// picks the palette (on a coarser histogram for ``ImageEncodeEffort/fastest``) and each pixel gets the entry
/// of its box.
enum GIFColorQuantizer {
    static func quantize(_ pixels: PixelBuffer, effort: ImageEncodeEffort) -> GIFIndexedFrame {
        let rgba = pixels.converted(to: .rgba8)
        return exactPalette(rgba)
            ?? GIFMedianCut.quantize(rgba, bitsPerChannel: GIFMedianCut.bitsPerChannel(for: effort))
    }

    /// The palette of the frame's own colours, or nil when there are more than 256 entries' worth.
    private static func exactPalette(_ pixels: PixelBuffer) -> GIFIndexedFrame? {
        var lookup: [UInt32: UInt8] = [:]
        var colors: [GIFColor] = []
        var transparentIndex: Int?
        var indices = [UInt8](repeating: 0, count: pixels.width * pixels.height)
        let complete = pixels.withUnsafeBytes { raw -> Bool in
            var lastKey: UInt32?, lastIndex: UInt8 = 0
            for i in 0..<indices.count {
                let (r, g, b, a) = (raw[i * 4], raw[i * 4 + 1], raw[i * 4 + 2], raw[i * 4 + 3])
                // Opaque colours are 24-bit keys; the transparent entry gets a key no colour can have.
                let key = a < 128 ? UInt32.max : UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
                if key != lastKey {
                    if let known = lookup[key] {
                        lastIndex = known
                    } else {
                        guard colors.count < 256 else { return false }
                        lastIndex = UInt8(colors.count)
                        lookup[key] = lastIndex
                        if a < 128 {
                            transparentIndex = colors.count
                            colors.append((0, 0, 0))
                        } else {
                            colors.append((r, g, b))
                        }
                    }
                    lastKey = key
                }
                indices[i] = lastIndex
            }
            return true
        }
        return complete ? GIFIndexedFrame(colors: colors, indices: indices, transparentIndex: transparentIndex) : nil
    }
}
