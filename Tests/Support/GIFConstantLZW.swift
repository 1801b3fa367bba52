/// The LZW data of an image whose pixels all have palette index 0, computed from the run lengths instead of
/// pixel by pixel, so a 100 MP GIF costs a few thousand codes to make.
///
/// Follows the encoder Go's `compress/lzw` implements (and GIF decoders read): a clear code first, one more
/// code per emitted string, the code width growing when the next code reaches a power of two, and a clear
/// code when the table fills. On a constant input each emitted string is one pixel longer than the last.
enum GIFConstantLZW {
    /// The image data: the minimum code size byte, the codes in sub-blocks of at most 255 bytes, and the
    /// zero-length block that ends them.
    static func imageData(pixelCount: Int, minimumCodeSize: Int = 2) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1, maximumCode = 4095
        var bits = BitWriter()
        var width = minimumCodeSize + 1, next = end, overflow = clear << 1
        /// Code of the run of each length; a run of one is the literal 0.
        var codeOfLength = [0]
        bits.write(UInt64(clear), count: width)
        var remaining = pixelCount
        while remaining > 0 {
            let length = min(codeOfLength.count, remaining)
            bits.write(UInt64(codeOfLength[length - 1]), count: width)
            remaining -= length
            next += 1
            if next == overflow {
                width += 1
                overflow <<= 1
            }
            if next == maximumCode {
                bits.write(UInt64(clear), count: width)
                width = minimumCodeSize + 1
                next = end
                overflow = clear << 1
                codeOfLength = [0]
            } else if remaining > 0 {
                codeOfLength.append(next)
            }
        }
        bits.write(UInt64(end), count: width)
        let codes = bits.finish()
        var out: [UInt8] = [UInt8(minimumCodeSize)]
        var offset = 0
        while offset < codes.count {
            let count = min(255, codes.count - offset)
            out.append(UInt8(count))
            out += codes[offset ..< offset + count]
            offset += count
        }
        return out + [0]
    }
}
