import WebImageCore

/// What the marker segments before the first scan say that the JPEG libraries do not report.
///
/// TurboJPEG exposes neither the EXIF (or XMP) orientation, the ICC profile (APP2) nor the Adobe APP14 marker (which says
/// CMYK samples are stored inverted), so they are read here from the raw bytes, up to the first SOS.
struct JPEGMarkers: Equatable {
    /// The EXIF orientation (tag 274 of IFD0), else XMP's `tiff:Orientation`, else `.up`.
    var orientation: ImageOrientation { exifOrientation ?? xmpOrientation ?? .up }
    /// The first EXIF segment's orientation, nil when it has none.
    private var exifOrientation: ImageOrientation?
    /// The first XMP packet's orientation, nil when it states none.
    private var xmpOrientation: ImageOrientation?
    /// An Adobe APP14 segment is present: CMYK samples are stored as 255 − ink.
    var hasAdobeMarker = false
    /// The walk ended before a complete scan header: mostly a file cut inside its header (also EOI, or a length
    /// under 2, before any scan).
    var endsBeforeScan = true
    /// The APP2 `ICC_PROFILE` chunks seen.
    private var icc = JPEGICCProfile()

    /// The embedded ICC profile, nil when there is none or a chunk is missing.
    var iccProfile: [UInt8]? { icc.bytes }

    /// Reads the segments of the JPEG in `bytes` (which starts with SOI) up to the first scan header, with
    /// ``JPEGSegmentIterator``'s recovery rules. Never traps on bad input.
    init(scanning bytes: UnsafeRawBufferPointer) {
        var sawEXIF = false, sawXMP = false
        for segment in JPEGSegmentIterator(bytes) {
            let body = segment.body(in: bytes), marker = segment.marker
            if marker == JPEGMarker.app1 && !sawEXIF, let tiff = EXIFOrientation.tiffPayload(ofAPP1: body) {
                sawEXIF = true
                exifOrientation = EXIFOrientation.value(tiff: tiff)
            } else if marker == JPEGMarker.app1 && !sawXMP, let packet = XMPOrientation.packet(ofAPP1: body) {
                sawXMP = true
                xmpOrientation = XMPOrientation.read(packet: packet)
            } else if marker == JPEGMarker.app2 {
                icc.add(app2: body)
            } else if marker == JPEGMarker.app14 && body.count >= 12 && body.starts(with: "Adobe".utf8) {
                hasAdobeMarker = true
            } else if marker == JPEGMarker.sos {
                // The walk hands out SOS only when its header is complete.
                endsBeforeScan = false
            }
        }
    }
}
