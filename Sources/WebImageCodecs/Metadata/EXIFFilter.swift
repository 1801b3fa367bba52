import Foundation

/// The two edits the service makes to EXIF: keep only the copyright (IFD0 Artist and Copyright, as libvips
/// saves what imgproxy's `keep_copyright` leaves), and set the orientation to 1 (the pixels were turned
/// upright) while keeping everything else byte for byte.
enum EXIFFilter {
    static let artist: UInt16 = 0x013B
    static let copyright: UInt16 = 0x8298
    static let orientation: UInt16 = 0x0112

    /// Whether `tiff` is an EXIF TIFF structure whose IFD0 can be read.
    static func isReadable(_ tiff: Data) -> Bool {
        TIFFStructure(tiff) != nil
    }

    /// The TIFF structure in an EXIF payload as containers store it: bare, after JPEG's `Exif\0\0` (which some
    /// PNG and WebP writers keep), or after ISOBMFF's 4-byte big-endian offset to it (HEIF, AVIF, JPEG XL).
    /// Nil when none of these reads.
    static func tiff(in payload: Data) -> Data? {
        if isReadable(payload) { return payload }
        let bytes = [UInt8](payload)
        let exifPrefix: [UInt8] = Array("Exif".utf8) + [0, 0]
        if bytes.starts(with: exifPrefix) {
            let rest = Data(bytes[exifPrefix.count...])
            if isReadable(rest) { return rest }
        }
        guard bytes.count > 4 else { return nil }
        let offset = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard offset < bytes.count - 4 else { return nil }
        let rest = Data(bytes[(4 + offset)...])
        return isReadable(rest) ? rest : nil
    }

    /// A new TIFF structure, in the source's byte order, whose IFD0 holds only the source's Artist and
    /// Copyright entries; nil when it has neither or cannot be read.
    static func copyrightOnly(_ tiff: Data) -> Data? {
        guard let source = TIFFStructure(tiff) else { return nil }
        let kept = [artist, copyright].compactMap { tag in source.entry(tag).flatMap { $0.value == nil ? nil : $0 } }
        guard !kept.isEmpty else { return nil }
        var writer = TIFFWriter(bigEndian: source.bigEndian)
        for entry in kept {
            writer.add(tag: entry.tag, type: entry.type, count: entry.count, value: Array(source.bytes[entry.value!]))
        }
        return Data(writer.bytes)
    }

    /// `tiff` with IFD0's orientation set to `value` (1…8) where it has an orientation entry, else as it is; nil
    /// when it cannot be read. The rest of the structure is untouched, so offsets into it stay valid.
    static func settingOrientation(_ tiff: Data, to value: Int) -> Data? {
        guard let source = TIFFStructure(tiff) else { return nil }
        guard let entry = source.entry(orientation), entry.type == 3, entry.count >= 1 else { return tiff }
        var bytes = source.bytes
        let at = entry.offset + 8
        bytes[at] = source.bigEndian ? 0 : UInt8(value)
        bytes[at + 1] = source.bigEndian ? UInt8(value) : 0
        return Data(bytes)
    }
}
