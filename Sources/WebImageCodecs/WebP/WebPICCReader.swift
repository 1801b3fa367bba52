/// Reads the ICC profile of an extended WebP: the `ICCP` chunk, announced by VP8X's flags.
enum WebPICCReader {
    /// The profile's bytes, nil when the file declares none or its chunk has not fully arrived.
    static func profile(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let flags = WebPChunkType.extendedFlags(in: bytes), flags & WebPChunkType.iccFlag != 0,
              let chunks = RIFFChunkIterator(webp: bytes),
              let chunk = chunks.first(where: { $0.type == WebPChunkType.ICCP }) else { return nil }
        return Array(chunk.payload(in: bytes))
    }
}
