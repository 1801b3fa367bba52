import WebImageCore

/// A frame reduced to a GIF palette: at most 256 colours, one index per pixel, and the transparent entry.
struct GIFIndexedFrame {
    var colors: [GIFColor]
    var indices: [UInt8]
    var transparentIndex: Int?
}

/// Reduces 8-bit RGBA frames to at most 256 palette entries each.
///
/// Pixels with alpha under 128 share one transparent entry; the others are treated as opaque. When a frame
/// has few enough colours its palette is exact (a lossless round trip); otherwise ``GIFMedianCut`` picks the
/// palette and each pixel gets the entry of its box. ``ImageEncodeEffort/balanced`` quantises every frame on
/// its own; ``ImageEncodeEffort/fastest``, unless every frame is exact, makes one palette for all frames on a
/// coarser histogram: one median cut instead of one per frame, and pixels that do not change between frames
/// keep their colour, so ``GIFFrameOptimizer`` stores only what moves.
enum GIFColorQuantizer {
    static func quantize(_ frames: [PixelBuffer], effort: ImageEncodeEffort) -> [GIFIndexedFrame] {
        let rgba = frames.map { $0.converted(to: .rgba8) }
        let bits = GIFMedianCut.bitsPerChannel(for: effort)
        switch effort {
        case .balanced:
            return rgba.map { exactPalette($0) ?? GIFMedianCut.quantize([$0], bitsPerChannel: bits)[0] }
        case .fastest:
            var exact: [GIFIndexedFrame] = []
            for frame in rgba {
                guard let indexed = exactPalette(frame) else {
                    return GIFMedianCut.quantize(rgba, bitsPerChannel: bits)
                }
                exact.append(indexed)
            }
            return exact
        }
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
