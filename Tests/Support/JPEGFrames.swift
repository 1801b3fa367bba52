/// Reads a JPEG's frame type as a decoder's first look does, independently of the codecs' own walker.
public enum JPEGFrames {
    /// The marker of the first start-of-frame segment (0xC0 baseline, 0xC1 extended, 0xC2 progressive, …), or
    /// nil when the bytes hold none before the first scan.
    public static func startOfFrame(in bytes: [UInt8]) -> UInt8? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return marker }
            if marker == 0xDA { return nil }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return nil
    }
}
