/// Reading an AVIF's `av1C` box, for tests of what the encoder wrote.
public enum AV1Config {
    /// Whether the first `av1C` box says chroma is subsampled horizontally (4:2:0 or 4:2:2), nil without one.
    public static func chromaSubsampled(in bytes: [UInt8]) -> Bool? {
        let type: [UInt8] = Array("av1C".utf8)
        guard bytes.count >= 7,
              let start = (0...(bytes.count - 7)).first(where: { Array(bytes[$0..<($0 + 4)]) == type }) else { return nil }
        // After the type: marker and version, profile and level, then tier, bit depths, monochrome,
        // subsampling x (bit 3), subsampling y and the sample position.
        return bytes[start + 6] & 0x08 != 0
    }
}
