import Foundation

/// The resolution of a JPEG TurboJPEG wrote, set in its JFIF APP0 segment (``ImageEncodeOptions/dpi``).
enum JPEGDensity {
    /// `jpeg` with its JFIF segment saying `dpi` dots per inch (units 1, both densities `dpi` rounded, 1…65535),
    /// changed in place; a JFIF segment is put right after SOI when the file starts without one.
    static func setting(_ dpi: Double, in jpeg: inout Data) {
        let density = UInt16(min(65535, max(1, dpi.rounded())))
        let high = UInt8(density >> 8), low = UInt8(density & 0xFF)
        let start = jpeg.startIndex
        if hasJFIF(jpeg) {
            // SOI (2), APP0 marker (2), length (2), "JFIF\0" (5), version (2): units at 13, densities at 14 and 16.
            jpeg.replaceSubrange(start + 13 ..< start + 18, with: [1, high, low, high, low])
        } else if jpeg.starts(with: [0xFF, 0xD8]) {
            // Length 16, "JFIF\0", version 1.01, units, densities, no thumbnail (libjpeg's own segment).
            let segment: [UInt8] = [0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01,
                                    1, high, low, high, low, 0, 0]
            jpeg.insert(contentsOf: segment, at: start + 2)
        }
    }

    /// Whether the file starts with SOI and an APP0 `JFIF` segment long enough to hold the densities.
    private static func hasJFIF(_ jpeg: Data) -> Bool {
        let bytes = [UInt8](jpeg.prefix(11))
        guard bytes.count == 11, bytes[0 ..< 4] == [0xFF, 0xD8, 0xFF, 0xE0] else { return false }
        let length = Int(bytes[4]) << 8 | Int(bytes[5])
        return length >= 16 && jpeg.count >= 4 + length && bytes[6 ..< 11] == [0x4A, 0x46, 0x49, 0x46, 0x00]
    }
}
