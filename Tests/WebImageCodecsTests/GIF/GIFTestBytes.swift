import Foundation

/// Builds GIF files with chosen palette indices, independently of the coder's encoder: a one-frame GIF with any
/// frame rectangle, transparency and interlacing, for checking the row-by-row decoder against the canvas.
enum GIFTestBytes {
    /// A GIF89a of one frame on a `screen`-sized screen: `indices` (row by row, display order) fill the frame
    /// rectangle; `palette` is the global colour table (RGB triples, 2, 4, … 256 of them).
    static func still(screen: (width: Int, height: Int), frame: (left: Int, top: Int, width: Int, height: Int),
                      palette: [[UInt8]], transparent: UInt8? = nil, interlaced: Bool = false, indices: [UInt8]) -> Data {
        let sizeBits = UInt8(palette.count.trailingZeroBitCount - 1)
        var bytes = Array("GIF89a".utf8) + le(screen.width) + le(screen.height) + [0x80 | sizeBits, 0, 0]
        bytes += palette.flatMap { $0 }
        if let transparent { bytes += [0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, transparent, 0x00] }
        bytes += [0x2C] + le(frame.left) + le(frame.top) + le(frame.width) + le(frame.height) + [interlaced ? 0x40 : 0]
        let rows = interlaced ? interlacedOrder(height: frame.height) : Array(0..<frame.height)
        let stored = rows.flatMap { indices[$0 * frame.width ..< ($0 + 1) * frame.width] }
        bytes += [8] + subBlocks(lzw(stored, minimumCodeSize: 8)) + [0x3B]
        return Data(bytes)
    }

    /// Display rows in the order an interlaced GIF stores them: every 8th from 0, every 8th from 4, every 4th
    /// from 2, every 2nd from 1.
    static func interlacedOrder(height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    /// LZW codes for `indices` as Go's `compress/lzw` writes them (least significant bit first).
    static func lzw(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var out: [UInt8] = [], buffer = 0, used = 0
        var width = minimumCodeSize + 1, next = end, overflow = clear << 1
        var table: [Int: Int] = [:]
        func write(_ code: Int) {
            buffer |= code << used
            used += width
            while used >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                used -= 8
            }
        }
        /// One more code in use; false when the table filled and was cleared.
        func grow() -> Bool {
            next += 1
            if next == overflow {
                width += 1
                overflow <<= 1
            }
            guard next == 4095 else { return true }
            write(clear)
            width = minimumCodeSize + 1
            next = end
            overflow = clear << 1
            table = [:]
            return false
        }
        write(clear)
        var code = Int(indices[0])
        for literal in indices.dropFirst() {
            let key = code << 8 | Int(literal)
            if let found = table[key] {
                code = found
                continue
            }
            write(code)
            code = Int(literal)
            if grow() { table[key] = next }
        }
        write(code)
        _ = grow()
        write(end)
        if used > 0 { out.append(UInt8(buffer & 0xFF)) }
        return out
    }

    private static func subBlocks(_ data: [UInt8]) -> [UInt8] {
        stride(from: 0, to: data.count, by: 255).flatMap { start -> [UInt8] in
            let end = min(start + 255, data.count)
            return [UInt8(end - start)] + data[start..<end]
        } + [0]
    }

    private static func le(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
}
