import CDeflate
import WebImageCore

/// Writes a PNG for ``ImageEncodeEffort/fastest``: every row takes the Sub filter and the image data is
/// deflated in one call by libdeflate at level 1. Interlaced PNGs (Adam7, which libpng's simplified writer
/// cannot make) are written here too, at the level asked for.
///
/// libpng cannot do this cheaply: even at zlib level 1 with Z_RLE a detailed 256×256 RGBA thumbnail costs
/// about 2.7 ms in zlib, against about 1.5 ms here with output no larger. Sub is the cheapest filter that
/// still pays on photos and gradients (libpng's adaptive choice tries all five per row). The stream holds
/// only IHDR, one IDAT and IEND; ``APNGEncoder`` re-frames that IDAT like libpng's.
enum PNGFastWriter {
    /// A PNG stream of an RGBA8 raster: RGBA when `alpha`, else RGB (alpha dropped); Adam7-interlaced when
    /// `interlaced`, deflated at libdeflate's `level` (1 fastest, 12 smallest).
    static func write(_ pixels: PixelBuffer, alpha: Bool, interlaced: Bool = false, level: Int32 = 1) throws -> [UInt8] {
        let filtered = passes(interlaced: interlaced).flatMap { filterRows(pixels, channels: alpha ? 4 : 3, pass: $0) }
        // 8-bit samples, truecolour (6 with alpha, 2 without).
        return try stream(width: pixels.width, height: pixels.height, bitDepth: 8, colorType: alpha ? 6 : 2,
                          interlaced: interlaced, chunks: [], data: filtered, level: level)
    }

    /// A PNG stream: IHDR (`bitDepth`-bit samples of `colorType`, Adam7 or no interlace), `chunks` (type and
    /// body) in order, one IDAT of `data` (filtered rows, every pass) deflated at `level`, IEND.
    static func stream(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, interlaced: Bool,
                       chunks: [(UInt32, [UInt8])], data filtered: [UInt8], level: Int32) throws -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(level) else {
            throw WebImageError.encodingFailed(format: .png, reason: "out of memory for the deflate compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, filtered.count)

        var png = [UInt8]()
        let chunkBytes = chunks.reduce(0) { $0 + 12 + $1.1.count }
        png.reserveCapacity(PNGSignature.bytes.count + 25 + chunkBytes + 12 + bound + 12)
        png.append(contentsOf: PNGSignature.bytes)
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        // Deflate, adaptive filtering (the per-row filter byte).
        header.append(contentsOf: [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
        appendChunk(PNGChunkType.IHDR, to: &png, body: header)
        for (type, body) in chunks { appendChunk(type, to: &png, body: body) }

        let lengthAt = png.count
        png.appendBigEndian(UInt32(0))
        png.appendBigEndian(PNGChunkType.IDAT)
        let dataAt = png.count
        png.append(contentsOf: repeatElement(0, count: bound))
        let written = png.withUnsafeMutableBytes { out in
            filtered.withUnsafeBytes { input in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, out.baseAddress! + dataAt, bound)
            }
        }
        guard written > 0 else {
            throw WebImageError.encodingFailed(format: .png, reason: "libdeflate could not compress the image data")
        }
        png.removeLast(bound - written)
        var length: [UInt8] = []
        length.appendBigEndian(UInt32(written))
        png.replaceSubrange(lengthAt..<dataAt - 4, with: length)
        png.appendBigEndian(png.withUnsafeBytes { crc(UnsafeRawBufferPointer(rebasing: $0[(lengthAt + 4)...])) })
        appendChunk(PNGChunkType.IEND, to: &png, body: [])
        return png
    }

    /// The pixels a pass holds: every `dx`-th of every `dy`-th row, from (`x`, `y`).
    struct Pass {
        var x, y, dx, dy: Int
    }

    /// Adam7's seven passes, in order (PNG specification, 8.2).
    static let adam7Passes = [Pass(x: 0, y: 0, dx: 8, dy: 8), Pass(x: 4, y: 0, dx: 8, dy: 8),
                              Pass(x: 0, y: 4, dx: 4, dy: 8), Pass(x: 2, y: 0, dx: 4, dy: 4),
                              Pass(x: 0, y: 2, dx: 2, dy: 4), Pass(x: 1, y: 0, dx: 2, dy: 2),
                              Pass(x: 0, y: 1, dx: 1, dy: 2)]

    /// The passes of an interlaced image (Adam7's seven), or the one pass of the whole image.
    static func passes(interlaced: Bool) -> [Pass] {
        interlaced ? adam7Passes : [Pass(x: 0, y: 0, dx: 1, dy: 1)]
    }

    /// How many columns and rows of an image of `width` × `height` a pass holds (zero for an image narrower or
    /// shorter than its start).
    static func size(of pass: Pass, width: Int, height: Int) -> (width: Int, height: Int) {
        (width > pass.x ? (width - pass.x + pass.dx - 1) / pass.dx : 0,
         height > pass.y ? (height - pass.y + pass.dy - 1) / pass.dy : 0)
    }

    /// Each row of `pass` as a Sub-filter byte then, per byte, its difference from the byte one pixel to the
    /// left; nothing for a pass with no pixels.
    private static func filterRows(_ pixels: PixelBuffer, channels: Int, pass: Pass) -> [UInt8] {
        let (width, height) = size(of: pass, width: pixels.width, height: pixels.height)
        guard width > 0, height > 0 else { return [] }
        let rowLength = 1 + width * channels
        return [UInt8](unsafeUninitializedCapacity: rowLength * height) { out, initialized in
            pixels.withUnsafeBytes { source in
                for y in 0..<height {
                    let row = (pass.y + y * pass.dy) * pixels.width * 4
                    var at = y * rowLength
                    out[at] = 1
                    at += 1
                    var left: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
                    for x in 0..<width {
                        let i = row + (pass.x + x * pass.dx) * 4
                        let pixel = (source[i], source[i + 1], source[i + 2], source[i + 3])
                        out[at] = pixel.0 &- left.0
                        out[at + 1] = pixel.1 &- left.1
                        out[at + 2] = pixel.2 &- left.2
                        if channels == 4 { out[at + 3] = pixel.3 &- left.3 }
                        at += channels
                        left = pixel
                    }
                }
            }
            initialized = rowLength * height
        }
    }

    /// Appends a whole chunk (length, type, body, CRC).
    private static func appendChunk(_ type: UInt32, to png: inout [UInt8], body: [UInt8]) {
        let start = png.count
        png.appendBigEndian(UInt32(body.count))
        png.appendBigEndian(type)
        png.append(contentsOf: body)
        png.appendBigEndian(png.withUnsafeBytes { crc(UnsafeRawBufferPointer(rebasing: $0[(start + 4)...])) })
    }

    /// The chunk CRC (type and data) with libdeflate's vectorised CRC-32, the same polynomial as PNG's.
    private static func crc(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        libdeflate_crc32(0, bytes.baseAddress, bytes.count)
    }
}
