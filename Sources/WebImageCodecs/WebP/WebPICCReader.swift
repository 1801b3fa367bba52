/// Reads the ICC profile of an extended WebP: the `ICCP` chunk, announced by bit 5 of VP8X's flags.
enum WebPICCReader {
    private static let riff = Array("RIFF".utf8), webp = Array("WEBP".utf8)
    private static let vp8x = Array("VP8X".utf8), iccp = Array("ICCP".utf8)
    private static let iccFlag: UInt8 = 0x20

    /// The profile's bytes, nil when the file declares none.
    static func profile(in bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        func tag(at offset: Int) -> ArraySlice<UInt8> { ArraySlice(bytes[offset ..< offset + 4]) }
        func size(at offset: Int) -> Int {
            Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        guard bytes.count >= 21, tag(at: 0).elementsEqual(riff), tag(at: 8).elementsEqual(webp),
              tag(at: 12).elementsEqual(vp8x), bytes[20] & iccFlag != 0 else { return nil }
        let end = min(bytes.count, 8 + size(at: 4))
        var offset = 12
        while end - offset >= 8 {
            let length = size(at: offset + 4)
            guard end - offset - 8 >= length else { return nil }
            if tag(at: offset).elementsEqual(iccp) { return Array(bytes[offset + 8 ..< offset + 8 + length]) }
            offset += 8 + length + length & 1
        }
        return nil
    }
}
