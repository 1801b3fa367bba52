import WebImageCore

/// What the marker segments before the first scan say that the JPEG libraries do not report.
///
/// TurboJPEG exposes neither the EXIF (or XMP) orientation, the ICC profile (APP2) nor the Adobe APP14 marker (which says
/// CMYK samples are stored inverted), so they are read here from the raw bytes; the scan stops at the first SOS.
struct JPEGMarkers: Equatable {
    /// The EXIF orientation (tag 274 of IFD0), else XMP's `tiff:Orientation`, else `.up`.
    var orientation: ImageOrientation { exifOrientation ?? xmpOrientation ?? .up }
    /// The first EXIF segment's orientation, nil when it has none.
    private var exifOrientation: ImageOrientation?
    /// The first XMP packet's orientation, nil when it states none.
    private var xmpOrientation: ImageOrientation?
    /// An Adobe APP14 segment is present: CMYK samples are stored as 255 − ink.
    var hasAdobeMarker = false
    /// The bytes ran out before the first scan's data starts (a file cut inside its header).
    var endsBeforeScan = true
    /// The APP2 `ICC_PROFILE` chunks seen.
    private var icc = JPEGICCProfile()

    /// The embedded ICC profile, nil when there is none or a chunk is missing.
    var iccProfile: [UInt8]? { icc.bytes }

    /// Scans the segments of the JPEG in `bytes` (which starts with SOI). Never traps on bad input.
    init(scanning bytes: UnsafeRawBufferPointer) {
        var index = 2
        var sawEXIF = false, sawXMP = false
        while index < bytes.count {
            // Markers are 0xFF then a code; any number of 0xFF fill bytes may precede the code, and
            // libjpeg skips stray bytes between segments, so do the same.
            guard bytes[index] == 0xFF else { index += 1; continue }
            while index < bytes.count && bytes[index] == 0xFF { index += 1 }
            guard index < bytes.count else { return }
            let code = bytes[index]
            index += 1
            switch code {
            case 0x00, 0x01, 0xD0...0xD8:
                continue  // stuffed byte, TEM, restart markers, SOI: no length
            case 0xD9:
                return  // EOI before any scan
            case 0xDA:
                // The scan header itself must be complete too.
                if index + 2 <= bytes.count {
                    endsBeforeScan = index + (Int(bytes[index]) << 8 | Int(bytes[index + 1])) > bytes.count
                }
                return
            default:
                break
            }
            guard index + 2 <= bytes.count else { return }
            let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            guard length >= 2 else { return }
            let body = index + 2, end = index + length
            guard end <= bytes.count else { return }
            let segment = UnsafeRawBufferPointer(rebasing: bytes[body..<end])
            if code == 0xE1 && !sawEXIF, let tiff = EXIFOrientation.tiffPayload(ofAPP1: segment) {
                sawEXIF = true
                exifOrientation = EXIFOrientation.value(tiff: tiff)
            } else if code == 0xE1 && !sawXMP, let packet = XMPOrientation.packet(ofAPP1: segment) {
                sawXMP = true
                xmpOrientation = XMPOrientation.read(packet: packet)
            } else if code == 0xE2 {
                icc.add(app2: segment)
            } else if code == 0xEE && segment.count >= 12 && segment.starts(with: "Adobe".utf8) {
                hasAdobeMarker = true
            }
            index = end
        }
    }
}
