import WebImageCore

/// Reads a WebP's orientation: the EXIF chunk's, else the `tiff:Orientation` of the `XMP ` chunk; `.up` when
/// there is neither.
///
/// As in SDWebImage, only the extended format counts: the first chunk must be VP8X with its EXIF or XMP flag
/// set.
/// The RIFF chunks are walked here, bounds-checked, rather than by libwebp's demuxer because the walk also
/// works on the partial bytes of a download: EXIF comes after the image data, so a progressive decode reports
/// the orientation once that chunk has fully arrived. A "Exif\0\0" prefix before the TIFF is tolerated.
enum WebPOrientationReader {
    private static let riff = Array("RIFF".utf8), webp = Array("WEBP".utf8)
    private static let vp8x = Array("VP8X".utf8), exif = Array("EXIF".utf8), xmp = Array("XMP ".utf8)
    /// Bits 3 and 2 of VP8X's flags byte.
    private static let exifFlag: UInt8 = 0x08, xmpFlag: UInt8 = 0x04

    /// The orientation in `bytes`, a WebP file or the start of one.
    static func orientation(in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        func tag(at offset: Int) -> ArraySlice<UInt8> { ArraySlice(bytes[offset ..< offset + 4]) }
        func size(at offset: Int) -> Int {
            Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        // RIFF header (12 bytes), then the VP8X chunk header and its flags byte.
        guard bytes.count >= 21, tag(at: 0).elementsEqual(riff), tag(at: 8).elementsEqual(webp),
              tag(at: 12).elementsEqual(vp8x), bytes[20] & (exifFlag | xmpFlag) != 0 else { return .up }
        // Bytes past what the RIFF header declares are not part of the file.
        let end = min(bytes.count, 8 + size(at: 4))
        var offset = 12
        var fromXMP: ImageOrientation?
        while end - offset >= 8 {
            let length = size(at: offset + 4)
            guard end - offset - 8 >= length else { break }
            let payload = UnsafeRawBufferPointer(rebasing: bytes[offset + 8 ..< offset + 8 + length])
            if bytes[20] & exifFlag != 0, tag(at: offset).elementsEqual(exif),
               let orientation = EXIFOrientation.value(payload: payload) {
                return orientation
            }
            if bytes[20] & xmpFlag != 0, fromXMP == nil, tag(at: offset).elementsEqual(xmp) {
                fromXMP = XMPOrientation.read(packet: payload)
            }
            // Chunks are padded to an even length.
            offset += 8 + length + length & 1
        }
        return fromXMP ?? .up
    }
}
