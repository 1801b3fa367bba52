import WebImageCore

/// The fields of a PNG's IHDR chunk that decoding decides on, read without libpng so the pixel limit can be
/// enforced before anything else happens.
struct PNGHeader: Equatable {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: Int
    var interlaced: Bool

    /// The size in pixels.
    var size: PixelSize { PixelSize(width: width, height: height) }

    /// The header of the PNG in `bytes`: `.truncated` when shorter than signature + IHDR, `.corrupt` when the
    /// signature is wrong or IHDR is not the first chunk.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws -> PNGHeader {
        guard PNGSignature.matches(bytes, allowPrefix: true) else {
            throw WebImageError.badImageData(.corrupt("the PNG signature is missing or damaged"))
        }
        guard bytes.count >= 33 else { throw WebImageError.badImageData(.truncated) }
        guard bytes.bigEndianUInt32(at: 8) == 13, bytes.bigEndianUInt32(at: 12) == PNGChunkType.IHDR else {
            throw WebImageError.badImageData(.corrupt("the first chunk is not a 13-byte IHDR"))
        }
        return PNGHeader(width: Int(bytes.bigEndianUInt32(at: 16)), height: Int(bytes.bigEndianUInt32(at: 20)),
                         bitDepth: Int(bytes[24]), colorType: Int(bytes[25]), interlaced: bytes[28] != 0)
    }

    /// Whether an acTL chunk comes before the first IDAT (an animated PNG). A stream that ends or breaks
    /// before either is treated as still, so the still path reports the damage.
    static func isAnimated(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var chunks = PNGChunkIterator(bytes)
        while let chunk = try? chunks.next() {
            if chunk.type == PNGChunkType.acTL { return true }
            if chunk.type == PNGChunkType.IDAT { return false }
        }
        return false
    }
}
