import Foundation
import WebImage

/// Icons built in the tests: PNG entries from the PNG coder, DIB entries from the BMP coder's output with the
/// file header dropped, the height doubled and an AND mask appended.
enum ICOTestFiles {
    /// One entry's bytes and the size its directory states.
    struct Entry {
        var width: Int
        var height: Int
        var bitCount: Int
        var bytes: [UInt8]
    }

    static func solid(width: Int, height: Int, _ rgba: [UInt8]) -> PixelBuffer {
        PixelBuffer(width: width, height: height, bytes: Array([[UInt8]](repeating: rgba, count: width * height).joined()))
    }

    static func png(_ pixels: PixelBuffer) throws -> Entry {
        Entry(width: pixels.width, height: pixels.height, bitCount: 32,
              bytes: [UInt8](try PNGCoder().encode(Image(pixels: pixels), as: .png, options: .init())))
    }

    /// A DIB of `pixels` as icons store it (BITMAPINFOHEADER with the height doubled, BI_RGB, rows bottom-up):
    /// 24-bit when opaque, else 32-bit with alpha in the fourth byte (all 0 with `zeroAlpha`), then the AND mask
    /// with the bits of `masked` pixels set.
    static func dib(_ pixels: PixelBuffer, masked: (Int, Int) -> Bool = { _, _ in false }, zeroAlpha: Bool = false) -> Entry {
        let bits = pixels.containsTransparency || zeroAlpha ? 32 : 24
        func u32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        var out = u32(40) + u32(pixels.width) + u32(pixels.height * 2) + [1, 0, UInt8(bits), 0] + u32(0) + u32(0)
        out += u32(0) + u32(0) + u32(0) + u32(0)
        let stride = (pixels.width * bits / 8 + 3) / 4 * 4
        for y in (0..<pixels.height).reversed() {
            var row: [UInt8] = []
            for x in 0..<pixels.width {
                let p = pixels.rgba8(x: x, y: y)
                row += bits == 32 ? [p[2], p[1], p[0], zeroAlpha ? 0 : p[3]] : [p[2], p[1], p[0]]
            }
            out += row + [UInt8](repeating: 0, count: stride - row.count)
        }
        let maskStride = (pixels.width + 31) / 32 * 4
        for y in (0..<pixels.height).reversed() {
            var row = [UInt8](repeating: 0, count: maskStride)
            for x in 0..<pixels.width where masked(x, y) { row[x / 8] |= 0x80 >> UInt8(x % 8) }
            out += row
        }
        return Entry(width: pixels.width, height: pixels.height, bitCount: bits, bytes: out)
    }

    static func icon(_ entries: [Entry]) -> Data {
        var out: [UInt8] = [0, 0, 1, 0, UInt8(entries.count), 0]
        var offset = 6 + 16 * entries.count
        func u32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        for entry in entries {
            out += [UInt8(entry.width & 0xFF), UInt8(entry.height & 0xFF), 0, 0, 1, 0, UInt8(entry.bitCount), 0]
            out += u32(entry.bytes.count) + u32(offset)
            offset += entry.bytes.count
        }
        for entry in entries { out += entry.bytes }
        return Data(out)
    }
}
