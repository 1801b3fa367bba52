/// Divides premultiplied colour by alpha, for decoders whose library hands out premultiplied pixels (the
/// model's rasters are straight alpha). Fully transparent pixels keep their (zero) colour.
enum AlphaUnpremultiplier {
    static func unpremultiply8(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        var i = 0
        while i + 3 < pixels.count {
            let alpha = UInt32(pixels[i + 3])
            if alpha != 0 && alpha != 255 {
                for c in i..<i + 3 { pixels[c] = UInt8(min(255, (UInt32(pixels[c]) * 255 + alpha / 2) / alpha)) }
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
}
