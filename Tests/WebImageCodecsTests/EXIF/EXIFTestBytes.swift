import Foundation
import Testing
import WebImage

/// EXIF payloads and the containers that carry them, built here so no tool is needed at test time: a TIFF
/// with one orientation entry, a PNG with an eXIf chunk, an extended WebP with an EXIF chunk.
enum EXIFTestBytes {
    /// Checks that `data`, ``pattern()`` carrying EXIF orientation `value`, decodes to the pattern with that
    /// orientation, and upright (applyOrientation) to the pattern turned, its blue top-left pixel where the turn
    /// puts it.
    static func expectOrientation(_ data: Data, decodedBy coder: any ImageDecoding, exifValue value: Int) throws {
        let orientation = ImageOrientation(exifValue: value)
        let stored = try coder.decode(data, options: .init())
        #expect(stored.orientation == orientation)
        #expect(stored.pixels == pattern())

        let upright = try coder.decode(data, options: .init(applyOrientation: true))
        let expected = topLeftAfterApplying(value)
        #expect(upright.orientation == .up)
        #expect(upright.pixelSize == expected.size)
        #expect(upright.pixels.rgba8(x: expected.x, y: expected.y) == [10, 10, 200, 255])
        #expect(upright.pixels == pattern().applying(orientation))
    }

    /// The JPEG APP1 prefix some writers also put before the TIFF in PNG and WebP.
    static let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// A TIFF whose IFD0 has one entry: tag 274 (orientation) of `type` (3 = SHORT), count 1, `value`.
    /// `byteOrder` overrides the "II"/"MM" mark and `ifdOffset` the IFD0 offset, to make malformed payloads.
    static func tiff(_ value: Int, littleEndian: Bool = true, byteOrder: [UInt8]? = nil, type: UInt16 = 3,
                     ifdOffset: UInt32 = 8) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            littleEndian ? u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) : u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF))
        }
        let order = byteOrder ?? Array((littleEndian ? "II" : "MM").utf8)
        // A SHORT value sits in the first two of the entry's four value bytes.
        return order + u16(42) + u32(ifdOffset) + u16(1)
            + u16(274) + u16(type) + u32(1) + u16(UInt16(value)) + u16(0)
            + u32(0)
    }

    /// Payloads that must read as `.up`: bad byte order, IFD0 past the end, LONG instead of SHORT, cut off
    /// inside the entry, empty, and the out-of-range value 9.
    static let malformedPayloads: [[UInt8]] = [
        tiff(6, byteOrder: Array("XX".utf8)), tiff(6, ifdOffset: 0xFFFF), tiff(6, littleEndian: false, type: 4),
        Array(tiff(6).prefix(14)), [], tiff(9),
    ]

    /// 4×3, every pixel distinct: (50x + 10, 100y + 10, 200, 255), the committed fixtures' raster too.
    static func pattern() -> PixelBuffer {
        var bytes: [UInt8] = []
        for y in 0..<3 {
            for x in 0..<4 { bytes += [UInt8(50 * x + 10), UInt8(100 * y + 10), 200, 255] }
        }
        return PixelBuffer(width: 4, height: 3, format: .rgba8, bytes: bytes)
    }

    /// The upright size of the 4×3 pattern under EXIF orientation `value`, and where its top-left pixel lands.
    static func topLeftAfterApplying(_ value: Int) -> (size: PixelSize, x: Int, y: Int) {
        let wide = PixelSize(width: 4, height: 3), tall = PixelSize(width: 3, height: 4)
        return [(wide, 0, 0), (wide, 3, 0), (wide, 3, 2), (wide, 0, 2),
                (tall, 0, 0), (tall, 2, 0), (tall, 2, 3), (tall, 0, 3)][value - 1]
    }

    /// `png` with an eXIf chunk holding `payload` right after IHDR (or just before IEND with `afterImageData`).
    static func png(_ png: Data, exif payload: [UInt8], afterImageData: Bool = false) -> Data {
        var chunks = PNGTestBytes.chunks([UInt8](png))
        let exif = PNGTestBytes.Chunk(type: "eXIf", data: payload)
        chunks.insert(exif, at: afterImageData ? chunks.count - 1 : 1)
        return Data(PNGTestBytes.stream(chunks))
    }

    /// `webp` in the extended format with an EXIF chunk holding `payload` after the image data, as webpmux
    /// writes it: a VP8X chunk is added when there is none (`canvas`, `hasAlpha` fill it), and its EXIF flag
    /// is set unless `flag` is false. RIFF sizes and padding are recomputed.
    static func webp(_ webp: Data, canvas: PixelSize, hasAlpha: Bool = false, exif payload: [UInt8],
                     flag: Bool = true) -> Data {
        var chunks = riffChunks([UInt8](webp))
        if chunks.first?.tag != "VP8X" {
            let width = le32(UInt32(canvas.width - 1)).prefix(3), height = le32(UInt32(canvas.height - 1)).prefix(3)
            chunks.insert((tag: "VP8X", body: [hasAlpha ? 0x10 : 0, 0, 0, 0] + width + height), at: 0)
        }
        if flag { chunks[0].body[0] |= 0x08 }
        chunks.append((tag: "EXIF", body: payload))
        var body = Array("WEBP".utf8)
        for chunk in chunks {
            body += Array(chunk.tag.utf8) + le32(UInt32(chunk.body.count)) + chunk.body
            if chunk.body.count % 2 == 1 { body.append(0) }
        }
        return Data(Array("RIFF".utf8) + le32(UInt32(body.count)) + body)
    }

    /// The chunks after a WebP's 12-byte RIFF header.
    static func riffChunks(_ bytes: [UInt8]) -> [(tag: String, body: [UInt8])] {
        var chunks: [(tag: String, body: [UInt8])] = [], offset = 12
        while offset + 8 <= bytes.count {
            let size = bytes[offset + 4 ..< offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            chunks.append((String(decoding: bytes[offset ..< offset + 4], as: UTF8.self),
                           Array(bytes[offset + 8 ..< offset + 8 + size])))
            offset += 8 + size + size % 2
        }
        return chunks
    }

    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> ($0 * 8) & 0xFF) } }
}
