/// zlib streams and checksums for the image builders, written by hand so tests can make large, highly
/// compressible images (hundreds of megabytes of pixels in a few megabytes) without a compressor.
public enum ZlibZeros {
    /// A zlib stream of `count` zero bytes: one fixed-Huffman deflate block of a literal zero followed by
    /// length-258, distance-1 matches (13 bits per 258 bytes), then literals for the remainder.
    public static func stream(count: Int) -> [UInt8] {
        precondition(count > 0, "at least one byte")
        var bits = BitWriter()
        bits.write(0b011, count: 3)  // BFINAL, then BTYPE 01 (fixed Huffman), least significant bit first
        let literalZero: UInt64 = 0b0000_1100, length258: UInt64 = 0b1010_0011  // codes 0x30 and 0xC5, bit-reversed
        bits.write(literalZero, count: 8)
        let matches = (count - 1) / 258, tail = (count - 1) % 258
        for _ in 0..<matches { bits.write(length258, count: 13) }  // then distance code 0: five zero bits
        for _ in 0..<tail { bits.write(literalZero, count: 8) }
        bits.write(0, count: 7)  // end of block (code 256)
        var out: [UInt8] = [0x78, 0x01] + bits.finish()
        // Adler-32 of zeros: a stays 1, b gains 1 per byte.
        out += bigEndian(UInt32(count % 65521) << 16 | 1)
        return out
    }

    /// A zlib stream holding `bytes` in one stored (uncompressed) block; at most 65,535 bytes.
    public static func stored(_ bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count <= 65_535, "one stored block holds at most 65,535 bytes")
        let length = UInt16(bytes.count)
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            + bytes + bigEndian(b << 16 | a)
    }

    /// The CRC-32 PNG chunks carry (ISO 3309, reflected, as zlib's `crc32`).
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}

/// Packs codes least significant bit first, as deflate and GIF's LZW both store them.
struct BitWriter {
    private var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var used = 0

    mutating func write(_ value: UInt64, count: Int) {
        buffer |= value << UInt64(used)
        used += count
        while used >= 8 {
            bytes.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            used -= 8
        }
    }

    /// The bytes, the last one padded with zero bits.
    mutating func finish() -> [UInt8] {
        if used > 0 { bytes.append(UInt8(buffer & 0xFF)) }
        buffer = 0
        used = 0
        return bytes
    }
}
