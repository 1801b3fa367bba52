import WebImageCore

/// Finds a PNG's orientation: the EXIF orientation of its eXIf chunk, else the `tiff:Orientation` of an XMP
/// packet (an iTXt chunk with the keyword `XML:com.adobe.xmp`); `.up` when there is neither.
///
/// Resumable, so the progressive decoder can hand it every longer buffer without rescanning: it walks the
/// complete chunks from where it stopped. The format allows one eXIf, so the first one decides; a bad CRC or
/// a malformed payload counts as absent. eXIf belongs before IDAT, but some writers put it after, so the walk
/// goes on to IEND (only chunk headers are read on the way, and the XMP chunk's text).
struct PNGOrientationReader {
    /// The orientation found so far.
    var orientation: ImageOrientation { exif ?? xmp ?? .up }
    private var exif: ImageOrientation?
    private var xmp: ImageOrientation?
    private var offset = PNGSignature.bytes.count
    private var isDone = false

    /// The orientation of a complete PNG stream.
    static func orientation(in bytes: UnsafeRawBufferPointer) -> ImageOrientation {
        var reader = PNGOrientationReader()
        reader.advance(over: bytes)
        return reader.orientation
    }

    /// Reads the chunks of `bytes` (the stream seen before, now possibly longer) that have fully arrived.
    mutating func advance(over bytes: UnsafeRawBufferPointer) {
        guard !isDone, PNGSignature.matches(bytes) else { return }
        var chunks = PNGChunkIterator(bytes, from: offset)
        // A chunk cut off stops the walk until more bytes arrive.
        while let chunk = try? chunks.next() {
            offset = chunks.offset
            if chunk.type == PNGChunkType.eXIf {
                if chunk.hasValidCRC(in: bytes) {
                    let payload = UnsafeRawBufferPointer(rebasing: bytes[chunk.dataRange])
                    exif = EXIFOrientation.value(payload: payload)
                }
                isDone = exif != nil
            } else if chunk.type == PNGChunkType.iTXt, xmp == nil, chunk.hasValidCRC(in: bytes) {
                xmp = PNGXMPText.packet(in: UnsafeRawBufferPointer(rebasing: bytes[chunk.dataRange]))
                    .flatMap { $0.withUnsafeBytes { XMPOrientation.read(packet: $0) } }
            }
            if chunk.type == PNGChunkType.IEND { isDone = true }
            if isDone { return }
        }
    }
}
