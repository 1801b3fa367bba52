import CZlib
import Foundation

/// Gzip-compressed SVG (`.svgz`) for the SVGZ tests: a drawing compressed as a file holds it, a drawing that
/// compresses only a few times (over a byte limit, within the ratio), and a gzip bomb that sniffs as SVG.
public enum SVGZSamples {
    /// A 100×50 drawing: a blue disc on a transparent background and a script a sanitizer removes.
    public static let drawing = Data("""
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50" onload="alert(1)">
      <script>alert(2)</script>
      <circle cx="25" cy="25" r="20" fill="#0000ff"/>
    </svg>
    """.utf8)

    /// `svg` gzip-compressed, as an `.svgz` file holds it.
    public static func compressed(_ svg: Data = drawing) -> Data { ContentEncoding.gzip(svg) }

    /// A 200×200 document of `count` rectangles at seeded positions and colours: about 60 bytes each, and only a
    /// few times smaller compressed.
    public static func rectangles(_ count: Int, seed: UInt64 = 1) -> Data {
        var generator = SplitMix64(seed: seed)
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"200\">"
        for _ in 0..<count {
            let value = generator.next()
            let x = value % 190, y = (value >> 8) % 190, colour = String(value >> 40 & 0xFFFFFF, radix: 16)
            text += "<rect x=\"\(x)\" y=\"\(y)\" width=\"10\" height=\"10\" fill=\"#\(colour)\"/>"
        }
        return Data((text + "</svg>").utf8)
    }

    /// A gzip bomb whose inflated start is an SVG root: `<svg …>` and then `inflatedBytes` spaces, deflated in
    /// 1 MB pieces at zlib's best level (about 1,000 times smaller) without ever holding the inflated text.
    public static func bomb(inflatedBytes: Int) -> Data {
        var stream = z_stream()
        // 15 + 16: gzip's header and trailer (zlib's `deflateInit2` is a macro).
        let started = deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                                    zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        precondition(started == Z_OK, "deflateInit2 failed: \(started)")
        defer { deflateEnd(&stream) }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        func deflate(_ input: [UInt8], _ flush: Int32) {
            var input = input
            input.withUnsafeMutableBufferPointer { bytes in
                stream.next_in = bytes.baseAddress
                stream.avail_in = uInt(bytes.count)
                repeat {
                    let produced = buffer.withUnsafeMutableBufferPointer { out -> Int in
                        stream.next_out = out.baseAddress
                        stream.avail_out = uInt(out.count)
                        let status = CZlib.deflate(&stream, flush)
                        precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "deflate: \(status)")
                        return out.count - Int(stream.avail_out)
                    }
                    output.append(contentsOf: buffer[0..<produced])
                } while stream.avail_out == 0 || (flush == Z_FINISH && stream.avail_in > 0)
            }
        }
        deflate(Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">".utf8), Z_NO_FLUSH)
        let piece = [UInt8](repeating: 0x20, count: 1 << 20)
        var left = inflatedBytes
        while left > 0 {
            deflate(Array(piece.prefix(left)), Z_NO_FLUSH)
            left -= min(left, piece.count)
        }
        deflate([], Z_FINISH)
        return output
    }
}
