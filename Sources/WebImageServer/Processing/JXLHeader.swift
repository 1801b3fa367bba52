import WebImage

/// The stored size of a JPEG XL image (before its orientation, which the decoder reports and does not apply):
/// the codestream's `SizeHeader`, right after the `FF 0A` signature, read from a bare codestream or from the
/// first bytes of the container's `jxlc` box or `jxlp` boxes (ISO/IEC 18181-1 D.2, 18181-2 9).
enum JXLHeader {
    /// The size, or nil when the bytes end before it or the container holds no codestream.
    static func size(_ bytes: UnsafeRawBufferPointer) -> PixelSize? {
        let prefix = bytes.starts(with: [0xFF, 0x0A]) ? Array(bytes.prefix(maxHeaderBytes)) : containerPrefix(bytes)
        guard prefix.count >= 2, prefix[0] == 0xFF, prefix[1] == 0x0A else { return nil }
        var reader = BitReader(bytes: prefix, position: 16)
        return sizeHeader(&reader)
    }

    /// Signature and the longest `SizeHeader` (68 bits), rounded up.
    private static let maxHeaderBytes = 12

    /// The codestream's first bytes, gathered across the container's `jxlc` or `jxlp` boxes in file order (a
    /// `jxlp` payload starts with its 4-byte index).
    private static func containerPrefix(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let file = ISOBMFFBoxes(bytes: bytes)
        var prefix: [UInt8] = []
        for box in file.boxes(in: 0..<bytes.count, tolerant: true) ?? [] where prefix.count < maxHeaderBytes {
            switch box.type {
            case "jxlc": prefix += bytes[box.payload].prefix(maxHeaderBytes - prefix.count)
            case "jxlp":
                let payload = min(box.payload.lowerBound + 4, box.payload.upperBound)..<box.payload.upperBound
                prefix += bytes[payload].prefix(maxHeaderBytes - prefix.count)
            default: break
            }
        }
        return prefix
    }

    /// The x:y ratios a `SizeHeader` can name instead of a width (index 1…7).
    private static let ratios: [(Int, Int)] = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)]

    /// `small` (both sides multiples of 8, up to 256), the height, the ratio, and the width unless the ratio
    /// gives it.
    private static func sizeHeader(_ reader: inout BitReader) -> PixelSize? {
        guard let small = reader.bits(1) else { return nil }
        func side() -> Int? {
            small == 1 ? reader.bits(5).map { ($0 + 1) * 8 } : reader.u32([9, 13, 18, 30]).map { $0 + 1 }
        }
        guard let height = side(), let ratio = reader.bits(3) else { return nil }
        if ratio != 0 {
            let (x, y) = ratios[ratio - 1]
            return PixelSize(width: height * x / y, height: height)
        }
        return side().map { PixelSize(width: $0, height: height) }
    }

    /// Least-significant-bit-first reads, as JPEG XL's bitstream packs fields.
    private struct BitReader {
        let bytes: [UInt8]
        var position: Int

        mutating func bits(_ count: Int) -> Int? {
            guard position + count <= bytes.count * 8 else { return nil }
            var value = 0
            for bit in 0..<count {
                let at = position + bit
                value |= Int(bytes[at >> 3] >> (at & 7) & 1) << bit
            }
            position += count
            return value
        }

        /// A `U32` field whose 2-bit selector picks one of four bit counts.
        mutating func u32(_ widths: [Int]) -> Int? {
            bits(2).flatMap { bits(widths[$0]) }
        }
    }
}
