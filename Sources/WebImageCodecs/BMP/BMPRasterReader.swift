import WebImageCore

/// Turns a BMP's uncompressed rows (1–8-bit indexes, 16- and 32-bit bitfields, 24-bit BGR) into RGBA8, rows
/// top to bottom.
struct BMPRasterReader {
    let header: BMPHeader

    /// The pixels' bytes must already be known to hold every row (see ``BMPDecoding``).
    func read(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt32>) throws {
        let stride = header.rowStride
        let width = header.width
        let channels = header.bitCount > 8 && header.bitCount != 24 ? BitfieldChannels(masks: header.masks) : nil
        let palette = header.palette
        for row in 0..<header.height {
            let y = header.isTopDown ? row : header.height - 1 - row
            let line = out + y * width
            let start = header.pixelOffset + row * stride
            let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + start
            switch header.bitCount {
            case 24:
                for x in 0..<width {
                    let s = source + x * 3
                    line[x] = BMPPixel.pack(red: s[2], green: s[1], blue: s[0], alpha: 255)
                }
            case 32:
                for x in 0..<width {
                    let s = source + x * 4
                    line[x] = channels!.pixel(UInt32(s[0]) | UInt32(s[1]) << 8 | UInt32(s[2]) << 16 | UInt32(s[3]) << 24)
                }
            case 16:
                for x in 0..<width {
                    line[x] = channels!.pixel(UInt32(source[x * 2]) | UInt32(source[x * 2 + 1]) << 8)
                }
            default:
                try Self.readIndexes(source, bitCount: header.bitCount, width: width, palette: palette, into: line)
            }
        }
    }

    /// Indexes of 1, 2, 4 or 8 bits, most significant first, looked up in the palette.
    private static func readIndexes(_ source: UnsafePointer<UInt8>, bitCount: Int, width: Int, palette: [UInt32],
                                    into line: UnsafeMutablePointer<UInt32>) throws {
        let perByte = 8 / bitCount
        let mask = UInt8((1 << bitCount) - 1)
        for x in 0..<width {
            let byte = source[x / perByte]
            let shift = 8 - bitCount * (x % perByte + 1)
            let index = Int((byte >> UInt8(shift)) & mask)
            guard index < palette.count else { throw BMPPixel.indexError(index, palette.count) }
            line[x] = palette[index]
        }
    }
}

/// One RGBA8 pixel as a `UInt32` whose memory order is R, G, B, A, and the errors shared by the readers.
enum BMPPixel {
    @inline(__always)
    static func pack(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) -> UInt32 {
        (UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24).littleEndian
    }

    static func indexError(_ index: Int, _ count: Int) -> WebImageError {
        WebImageError.badImageData(.corrupt("BMP colour index \(index) outside its \(count)-colour palette"))
    }
}

/// Extracts and scales the red, green, blue and alpha fields of a 16- or 32-bit pixel to 8 bits.
struct BitfieldChannels {
    private let shifts: [UInt32]
    private let masks: [UInt32]
    private let maxima: [UInt32]
    private let hasAlpha: Bool

    init(masks: [UInt32]) {
        self.masks = masks
        shifts = masks.map { $0 == 0 ? 0 : UInt32($0.trailingZeroBitCount) }
        maxima = masks.map { $0 == 0 ? 0 : $0 >> UInt32($0.trailingZeroBitCount) }
        hasAlpha = masks[3] != 0
    }

    @inline(__always)
    private func channel(_ value: UInt32, _ index: Int) -> UInt8 {
        let maximum = maxima[index]
        let field = (value & masks[index]) >> shifts[index]
        if maximum == 255 { return UInt8(field) }
        return UInt8((UInt64(field) * 255 + UInt64(maximum / 2)) / UInt64(maximum))
    }

    @inline(__always)
    func pixel(_ value: UInt32) -> UInt32 {
        BMPPixel.pack(red: channel(value, 0), green: channel(value, 1), blue: channel(value, 2),
                      alpha: hasAlpha ? channel(value, 3) : 255)
    }
}
