import WebImageCore

/// Decodes RLE8 and RLE4 pixel data (runs, absolute runs, end of line, end of bitmap, deltas) into RGBA8, rows
/// top to bottom. Pixels the data skips (deltas, early end of line or bitmap) stay transparent.
///
/// Every run, absolute run and delta is checked against the image: one that would write outside a row or below
/// the last one is an error, not a clipped write.
struct BMPRunLengthReader {
    let header: BMPHeader

    /// Whether some pixel was skipped (so the image has transparency).
    func read(_ bytes: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt32>) throws -> Bool {
        let width = header.width, height = header.height
        let fourBit = header.compression == .rle4
        let palette = header.palette
        var position = header.pixelOffset
        let end = header.imageSize > 0 ? min(bytes.count, position + header.imageSize) : bytes.count
        var x = 0, y = 0, written = 0
        func corrupt(_ what: String) -> WebImageError { WebImageError.badImageData(.corrupt("BMP RLE: \(what)")) }
        func put(_ index: Int) throws {
            guard index < palette.count else { throw BMPPixel.indexError(index, palette.count) }
            out[(height - 1 - y) * width + x] = palette[index]
            x += 1
            written += 1
        }
        while true {
            guard position + 2 <= end else { throw WebImageError.badImageData(.truncated) }
            let count = Int(bytes[position]), value = Int(bytes[position + 1])
            position += 2
            if count > 0 {
                guard y < height, x + count <= width else { throw corrupt("a run past the end of row \(y)") }
                for i in 0..<count { try put(fourBit ? (i % 2 == 0 ? value >> 4 : value & 0x0F) : value) }
                continue
            }
            switch value {
            case 0:
                x = 0
                y += 1
            case 1:
                return written < width * height
            case 2:
                guard position + 2 <= end else { throw WebImageError.badImageData(.truncated) }
                x += Int(bytes[position])
                y += Int(bytes[position + 1])
                position += 2
                guard x <= width, y < height || (y == height && x == 0) else { throw corrupt("a delta outside the image") }
            default:
                let dataBytes = fourBit ? (value + 1) / 2 : value
                guard y < height, x + value <= width else { throw corrupt("an absolute run past the end of row \(y)") }
                guard position + dataBytes <= end else { throw WebImageError.badImageData(.truncated) }
                for i in 0..<value {
                    let byte = Int(bytes[position + (fourBit ? i / 2 : i)])
                    try put(fourBit ? (i % 2 == 0 ? byte >> 4 : byte & 0x0F) : byte)
                }
                // Absolute runs are padded to a 16-bit boundary.
                position += (dataBytes + 1) & ~1
            }
        }
    }
}
