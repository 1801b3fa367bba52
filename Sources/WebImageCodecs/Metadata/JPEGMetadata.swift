import Foundation
import WebImageCore

/// EXIF (APP1 `Exif\0\0`), XMP (APP1 `http://ns.adobe.com/xap/1.0/\0`) and IPTC (APP13 Photoshop resource
/// 0x0404) in a JPEG's segments before the first scan: read, and written back as segments.
///
/// The first segment of each kind counts. A blob too large for one segment (64 KB) is not written: JPEG's
/// extended XMP and multi-segment EXIF are not supported.
enum JPEGMetadata {
    private static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    private static let maxSegmentBody = 65_533

    /// The metadata in `bytes` (a whole JPEG); nil when it has none. The segments are walked by
    /// ``JPEGSegmentIterator``, as for the orientation. Never traps on bad input.
    static func read(_ bytes: UnsafeRawBufferPointer) -> ImageMetadata? {
        var metadata = ImageMetadata()
        for segment in JPEGSegmentIterator(bytes) {
            let body = segment.body(in: bytes), marker = segment.marker
            if marker == JPEGMarker.app1, metadata.exif == nil, body.starts(with: exifHeader) {
                let tiff = Data(body[exifHeader.count...])
                if EXIFFilter.isReadable(tiff) { metadata.exif = tiff }
            } else if marker == JPEGMarker.app1, metadata.xmp == nil, let packet = XMPOrientation.packet(ofAPP1: body) {
                metadata.xmp = Data(packet)
            } else if marker == JPEGMarker.app13, metadata.iptc == nil, let iptc = PhotoshopResources.iptc(inAPP13: body) {
                metadata.iptc = Data(iptc)
            }
        }
        return metadata.isEmpty ? nil : metadata
    }

    /// APP1 EXIF (its orientation made to agree with `orientation`), APP1 XMP and APP13 IPTC segments, markers
    /// included, for whichever `metadata` has and fits in a segment.
    static func segments(for metadata: ImageMetadata, orientation: ImageOrientation) -> [UInt8] {
        var output: [UInt8] = []
        if let exif = metadata.exif(for: orientation) { output += segment(JPEGMarker.app1, exifHeader + exif) }
        if let xmp = metadata.xmp { output += segment(JPEGMarker.app1, XMPOrientation.app1Header + xmp) }
        if let iptc = metadata.iptc { output += segment(JPEGMarker.app13, PhotoshopResources.app13Body(iptc: [UInt8](iptc))) }
        return output
    }

    /// Whether ``segments(for:orientation:)`` writes an EXIF segment (which then carries the orientation).
    static func writesEXIF(_ metadata: ImageMetadata?) -> Bool {
        guard let exif = metadata?.exif else { return false }
        return EXIFFilter.isReadable(exif) && exifHeader.count + exif.count <= maxSegmentBody
    }

    private static func segment(_ code: UInt8, _ body: [UInt8]) -> [UInt8] {
        guard body.count <= maxSegmentBody else { return [] }
        return [0xFF, code, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }
}
