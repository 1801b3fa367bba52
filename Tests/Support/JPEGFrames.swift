/// Reads a JPEG's frame header as a decoder's first look does, independently of the codecs' own walker.
public enum JPEGFrames {
    /// The marker of the first start-of-frame segment (0xC0 baseline, 0xC1 extended, 0xC2 progressive, …), or
    /// nil when the bytes hold none before the first scan.
    public static func startOfFrame(in bytes: [UInt8]) -> UInt8? {
        frameSegment(in: bytes).map { bytes[$0 + 1] }
    }

    /// The first component's (luma's) sampling factors, horizontal in the high nibble: 0x22 when chroma is at
    /// half resolution both ways (4:2:0), 0x11 when at full (4:4:4).
    public static func lumaSampling(in bytes: [UInt8]) -> UInt8? {
        // Marker, length, precision, height, width, component count, then the first component's id and factors.
        frameSegment(in: bytes).flatMap { $0 + 11 < bytes.count ? bytes[$0 + 11] : nil }
    }

    private static func frameSegment(in bytes: [UInt8]) -> Int? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return index }
            if marker == 0xDA { return nil }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return nil
    }
}
