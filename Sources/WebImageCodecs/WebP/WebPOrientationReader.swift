import WebImageCore

/// Reads a WebP's orientation: the EXIF chunk's, else the `tiff:Orientation` of the `XMP ` chunk; `.up` when
/// there is neither.
///
/// As in SDWebImage, only the extended format counts: the first chunk must be VP8X with its EXIF or XMP flag
/// set.
/// The chunks are walked by ``RIFFChunkIterator`` rather than by libwebp's demuxer because the walk also works
/// on the partial bytes of a download: EXIF comes after the image data, so a progressive decode reports the
/// orientation once that chunk has fully arrived. A "Exif\0\0" prefix before the TIFF is tolerated.
enum WebPOrientationReader {
    /// The orientation in `bytes`, a WebP file or the start of one.
    static func orientation(in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        guard let flags = WebPChunkType.extendedFlags(in: bytes),
              flags & (WebPChunkType.exifFlag | WebPChunkType.xmpFlag) != 0,
              let chunks = RIFFChunkIterator(webp: bytes) else { return .up }
        var fromXMP: ImageOrientation?
        for chunk in chunks {
            if flags & WebPChunkType.exifFlag != 0, chunk.type == WebPChunkType.EXIF,
               let orientation = EXIFOrientation.value(payload: chunk.payload(in: bytes)) {
                return orientation
            }
            if flags & WebPChunkType.xmpFlag != 0, fromXMP == nil, chunk.type == WebPChunkType.XMP {
                fromXMP = XMPOrientation.read(packet: chunk.payload(in: bytes))
            }
        }
        return fromXMP ?? .up
    }
}
