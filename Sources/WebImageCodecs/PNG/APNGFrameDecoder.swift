import WebImageCore

/// Decodes one APNG frame by handing libpng a standalone PNG made of the frame: an IHDR with the frame's size,
/// the chunks every frame shares (PLTE, tRNS, …), one IDAT holding the frame's data, and IEND.
///
/// Debian's libpng has no APNG support, so this is how the frames reach it.
enum APNGFrameDecoder {
    /// The frame's raster at its own size (not yet composited).
    static func decode(_ frame: APNGStructure.Frame, of structure: APNGStructure,
                       in bytes: UnsafeRawBufferPointer) throws -> PNGRasterDecoder.Result {
        let dataLength = frame.dataRanges.reduce(0) { $0 + $1.count }
        let shared = structure.sharedChunks.reduce(0) { $0 + $1.count }
        var writer = PNGChunkWriter(capacity: 64 + shared + dataLength)

        var ihdr = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[16..<29]))
        ihdr.replaceSubrange(0..<8, with: bigEndian(frame.control.width) + bigEndian(frame.control.height))
        writer.append(PNGChunkType.IHDR, ihdr)
        for range in structure.sharedChunks { writer.appendRaw(UnsafeRawBufferPointer(rebasing: bytes[range])) }
        writer.append(PNGChunkType.IDAT, frame.dataRanges.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) })
        writer.append(PNGChunkType.IEND, [UInt8]())

        var expected = structure.header
        expected.width = frame.control.width
        expected.height = frame.control.height
        return try writer.bytes.withUnsafeBytes { stream in
            var store = RasterStore.fresh
            return try PNGRasterDecoder.decode(stream, expected: expected, store: &store)
        }
    }

    private static func bigEndian(_ value: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.appendBigEndian(UInt32(truncatingIfNeeded: value))
        return out
    }
}
