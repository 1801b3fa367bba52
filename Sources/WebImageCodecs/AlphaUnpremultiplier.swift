/// Divides premultiplied colour by alpha, for decoders whose library hands out premultiplied pixels (the
/// model's rasters are straight alpha). Fully transparent pixels keep their (zero) colour.
enum AlphaUnpremultiplier {
    static func unpremultiply8(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        var i = 0
        while i + 3 < pixels.count {
            let alpha = UInt32(pixels[i + 3])
            if alpha != 0 && alpha != 255 {
                for c in i..<i + 3 { pixels[c] = UInt8(straight(UInt32(pixels[c]), alpha: alpha)) }
            }
            i += 4
        }
    }

    static func unpremultiply16(_ samples: UnsafeMutableBufferPointer<UInt16>) {
        var i = 0
        while i + 3 < samples.count {
            let alpha = UInt64(samples[i + 3])
            if alpha != 0 && alpha != 65535 {
                for c in i..<i + 3 {
                    samples[c] = UInt16(min(65535, (UInt64(samples[c]) * 65535 + alpha / 2) / alpha))
                }
            }
            i += 4
        }
    }

    /// cairo's `ARGB32` (premultiplied, one native-endian `0xAARRGGBB` word a pixel: B, G, R, A in memory on a
    /// little-endian machine, A, R, G, B on a big-endian one) turned in place into straight R, G, B, A bytes;
    /// the words are read and shifted, so either byte order comes out right. The SVG and PDF rasterizers draw
    /// with cairo onto the raster's own storage and finish with this, one pass over it.
    static func straightRGBA(fromCairoARGB32 raw: UnsafeMutableRawBufferPointer) {
        for offset in stride(from: 0, to: raw.count - 3, by: 4) {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            // A transparent premultiplied pixel is all zeros in either layout: most of a page, left untouched.
            guard word != 0 else { continue }
            let alpha = word >> 24
            var red = (word >> 16) & 0xFF, green = (word >> 8) & 0xFF, blue = word & 0xFF
            if alpha != 0 && alpha != 255 {
                red = straight(red, alpha: alpha)
                green = straight(green, alpha: alpha)
                blue = straight(blue, alpha: alpha)
            }
            // Stored little-endian: the bytes in memory are R, G, B, A whatever the machine.
            raw.storeBytes(of: (red | green << 8 | blue << 16 | alpha << 24).littleEndian, toByteOffset: offset,
                           as: UInt32.self)
        }
    }

    /// An 8-bit premultiplied `value` divided by `alpha` (1…254), rounded to nearest and clamped to 255.
    @inline(__always)
    private static func straight(_ value: UInt32, alpha: UInt32) -> UInt32 {
        min(255, (value * 255 + alpha / 2) / alpha)
    }
}
