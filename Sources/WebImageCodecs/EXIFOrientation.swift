import WebImageCore

/// Reads the EXIF orientation (TIFF tag 274 in IFD0) of a JPEG APP1 segment, a PNG eXIf chunk or a WebP EXIF
/// chunk, and writes it into a JPEG APP1 segment.
///
/// Only IFD0's orientation matters for display, so this is a bounds-checked walk of one IFD in either byte
/// order rather than a general EXIF parser; a structure that cannot be read counts as having no orientation,
/// a malformed orientation entry as `.up`.
enum EXIFOrientation {
    private static let header: [UInt8] = Array("Exif".utf8) + [0, 0]
    private static let orientationTag = 274
    private static let shortType = 3

    /// The TIFF structure inside an APP1 segment body, or nil if the segment is not EXIF (XMP also uses APP1).
    static func tiffPayload(ofAPP1 segment: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard segment.count > header.count, segment.starts(with: header) else { return nil }
        return UnsafeRawBufferPointer(rebasing: segment[header.count...])
    }

    /// The orientation in a PNG eXIf or WebP EXIF payload: a TIFF structure, optionally after the JPEG-style
    /// "Exif\0\0" prefix that some writers add although neither format has it. Nil when the payload has no
    /// readable orientation (so an XMP packet may give one).
    static func value(payload: UnsafeRawBufferPointer) -> ImageOrientation? {
        value(tiff: tiffPayload(ofAPP1: payload) ?? payload)
    }

    /// The orientation stored in IFD0 of `tiff`; nil when there is no orientation entry or the structure is
    /// unreadable, `.up` for an out-of-range value (as viewers treat it).
    static func value(tiff: UnsafeRawBufferPointer) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return bigEndian ? Int(tiff[at]) << 8 | Int(tiff[at + 1]) : Int(tiff[at + 1]) << 8 | Int(tiff[at])
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return bigEndian ? first << 16 | second : second << 16 | first
        }
        guard u16(2) == 42, let ifd = u32(4), let entryCount = u16(ifd) else { return nil }
        for entry in 0..<entryCount {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            guard tag == orientationTag else { continue }
            guard u16(at + 2) == shortType, let count = u32(at + 4), count >= 1, let value = u16(at + 8) else {
                return .up
            }
            return ImageOrientation(exifValue: value)
        }
        return nil
    }

    /// A complete APP1 segment (marker included) holding only this orientation, big-endian like most cameras.
    static func app1Segment(for orientation: ImageOrientation) -> [UInt8] {
        let value = UInt8(orientation.rawValue)
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8,   // "MM", 42, IFD0 at offset 8
                             0, 1,                                 // one entry
                             0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0,  // 274, SHORT, count 1, value
                             0, 0, 0, 0]                           // no next IFD
        let length = 2 + header.count + tiff.count
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + header + tiff
    }
}
