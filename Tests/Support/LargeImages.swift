import Foundation

/// Still images far larger in pixels than in bytes, all of whose pixels are zero (black, or transparent black
/// with alpha), for measuring what decoding them costs: a 100 MP PNG or GIF is a few hundred kilobytes.
public enum LargeImages {
    /// A PNG of `width × height` zero pixels: RGBA (transparent) with `alpha`, else RGB (opaque black); Adam7
    /// interlaced on request.
    public static func png(width: Int, height: Int, alpha: Bool, interlaced: Bool = false) -> Data {
        let bytesPerPixel = alpha ? 4 : 3
        // Each row (of each pass's reduced image) is a filter byte and its samples.
        let rawCount = passSizes(width: width, height: height, interlaced: interlaced)
            .reduce(0) { $0 + $1.rows * (1 + $1.columns * bytesPerPixel) }
        let header = ZlibZeros.bigEndian(UInt32(width)) + ZlibZeros.bigEndian(UInt32(height))
            + [8, alpha ? 6 : 2, 0, 0, interlaced ? 1 : 0]
        return PNGChunks.file([("IHDR", header), ("IDAT", ZlibZeros.stream(count: rawCount)), ("IEND", [])])
    }

    /// A GIF of `width × height` pixels of palette index 0 (black, from a two-colour global table), one image,
    /// interlaced on request.
    public static func gif(width: Int, height: Int, interlaced: Bool = false) -> Data {
        var bytes = Array("GIF89a".utf8) + littleEndian16(width) + littleEndian16(height) + [0x80, 0, 0]
        bytes += [0, 0, 0, 255, 255, 255]
        bytes += [0x2C] + littleEndian16(0) + littleEndian16(0) + littleEndian16(width) + littleEndian16(height)
        bytes.append(interlaced ? 0x40 : 0)
        bytes += GIFConstantLZW.imageData(pixelCount: width * height)
        return Data(bytes + [0x3B])
    }

    /// Columns and rows of each non-empty Adam7 pass (the whole image when not interlaced).
    static func passSizes(width: Int, height: Int, interlaced: Bool) -> [(columns: Int, rows: Int)] {
        guard interlaced else { return [(width, height)] }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.map { x, y, dx, dy in
            (max(0, (width - x + dx - 1) / dx), max(0, (height - y + dy - 1) / dy))
        }.filter { $0.columns > 0 && $0.rows > 0 }
    }

    static func littleEndian16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
}

/// PNG files from their chunks, CRCs computed.
public enum PNGChunks {
    /// The chunk types of a PNG stream, in order (a walk of its own, independent of the codecs').
    public static func types(in png: some Collection<UInt8>) -> [String] {
        let bytes = Array(png)
        var types: [String] = [], at = 8
        while at + 8 <= bytes.count {
            let length = bytes[at ..< at + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[at + 4 ..< at + 8], as: UTF8.self))
            at += 12 + length
        }
        return types
    }

    public static func file(_ chunks: [(type: String, data: [UInt8])]) -> Data {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in chunks {
            let body = Array(type.utf8) + data
            out += ZlibZeros.bigEndian(UInt32(data.count)) + body + ZlibZeros.bigEndian(ZlibZeros.crc32(body))
        }
        return Data(out)
    }
}
