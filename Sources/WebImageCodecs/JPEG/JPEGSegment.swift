/// One marker segment of a JPEG (a marker with a length field), located by offsets into the file's bytes.
struct JPEGSegment {
    /// The marker code, the byte after 0xFF (see ``JPEGMarker``).
    let marker: UInt8
    /// Offset of the two-byte length field.
    let offset: Int
    /// The length field: the body's bytes plus its own two.
    let length: Int

    /// Where the body (after the length field) lies.
    var bodyRange: Range<Int> { offset + 2 ..< offset + length }

    /// The body within `bytes`, the file the segment was found in.
    func body(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[bodyRange])
    }
}

/// The marker codes the codecs read or write.
enum JPEGMarker {
    static let eoi: UInt8 = 0xD9
    static let sos: UInt8 = 0xDA
    /// EXIF or XMP.
    static let app1: UInt8 = 0xE1
    /// ICC profile chunks.
    static let app2: UInt8 = 0xE2
    /// Photoshop resources (IPTC).
    static let app13: UInt8 = 0xED
    /// Adobe (inverted CMYK).
    static let app14: UInt8 = 0xEE
}

/// Walks the marker segments of a JPEG from just after SOI up to the first scan, with libjpeg's recovery
/// rules (`next_marker` in jdmarker.c), so what is read here is what the decoder sees:
/// - bytes other than 0xFF between segments are skipped (libjpeg only warns "extraneous bytes before marker");
/// - any number of 0xFF fill bytes may precede a marker code;
/// - FF 00 (a stuffed zero), TEM (01), RSTn (D0–D7) and SOI (D8) have no length and are passed over;
/// - SOS is the last segment returned: the entropy-coded data after its header is not walked;
/// - EOI ends the walk, and so does a length under 2 or a segment cut off by the end of the bytes (a partial
///   download): a cut segment's body is never handed out.
struct JPEGSegmentIterator: Sequence, IteratorProtocol {
    private let bytes: UnsafeRawBufferPointer
    /// Where the search for the next marker starts; `bytes.count` once the walk has ended.
    private var offset = 2

    /// Starts after the SOI marker that `bytes` (a whole JPEG or the start of one) opens with.
    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next segment; nil once the walk has ended.
    mutating func next() -> JPEGSegment? {
        while offset < bytes.count {
            guard bytes[offset] == 0xFF else { offset += 1; continue }
            while offset < bytes.count && bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { break }
            let marker = bytes[offset]
            offset += 1
            if marker == 0x00 || marker == 0x01 || (0xD0...0xD8).contains(marker) { continue }
            guard marker != JPEGMarker.eoi, bytes.count - offset >= 2 else { break }
            let length = Int(bytes.bigEndianUInt16(at: offset))
            guard length >= 2, length <= bytes.count - offset else { break }
            let segment = JPEGSegment(marker: marker, offset: offset, length: length)
            offset = marker == JPEGMarker.sos ? bytes.count : offset + length
            return segment
        }
        offset = bytes.count
        return nil
    }
}
