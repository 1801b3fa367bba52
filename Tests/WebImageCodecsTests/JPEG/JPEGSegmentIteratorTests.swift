import Foundation
import Testing
import TestSupport
@testable import WebImageCodecs
import WebImage

/// The one walk over a JPEG's marker segments (``JPEGSegmentIterator``), which the orientation, ICC and Adobe
/// reader and the metadata reader share: libjpeg's recovery rules, so both read what the decoder sees.
@Suite struct JPEGSegmentIteratorTests {
    private struct Found: Equatable {
        var marker: UInt8
        var offset: Int
        var length: Int
        var body: [UInt8]
    }

    private static func walk(_ bytes: [UInt8]) -> [Found] {
        bytes.withUnsafeBytes { raw in
            JPEGSegmentIterator(raw).map { Found(marker: $0.marker, offset: $0.offset, length: $0.length,
                                                 body: Array($0.body(in: raw))) }
        }
    }

    /// Stray bytes, fill bytes and markers without a length are passed over; SOS is the last segment, so a
    /// marker-like pair in the entropy-coded data after it is never read.
    @Test func recoversAsLibjpegDoesAndStopsAtTheScan() {
        let bytes: [UInt8] = [0xFF, 0xD8,                          // SOI
                              0x12, 0x34,                          // stray bytes
                              0xFF, 0xFF, 0xFF, 0xE1, 0, 4, 0xAA, 0xBB,  // fill bytes, APP1
                              0xFF, 0xD0, 0xFF, 0x01, 0xFF, 0x00, 0xFF, 0xD8,  // RST0, TEM, FF 00, SOI
                              0xFF, 0xE2, 0, 2,                    // APP2, empty body
                              0xFF, 0xDA, 0, 3, 0x01,              // SOS
                              0xFF, 0xE1, 0, 2, 0xFF, 0xD9]        // scan data, EOI
        #expect(Self.walk(bytes) == [Found(marker: 0xE1, offset: 8, length: 4, body: [0xAA, 0xBB]),
                                     Found(marker: 0xE2, offset: 22, length: 2, body: []),
                                     Found(marker: 0xDA, offset: 26, length: 3, body: [0x01])])
    }

    /// EOI, a length under 2, a segment or a length field cut off by the end of the bytes, and fill bytes at
    /// the end all end the walk; nothing after them is read.
    @Test(arguments: [[0xFF, 0xD9, 0xFF, 0xE1, 0, 2],
                      [0xFF, 0xE1, 0, 1, 0xFF, 0xE2, 0, 2],
                      [0xFF, 0xE1, 0, 5, 0x01, 0x02],
                      [0xFF, 0xE1, 0],
                      [0xFF, 0xFF, 0xFF]] as [[UInt8]])
    func endsWhereTheSegmentsCannotBeTrusted(tail: [UInt8]) {
        let head: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 3, 0x07]
        #expect(Self.walk(head + tail) == [Found(marker: 0xE0, offset: 4, length: 3, body: [0x07])])
    }

    /// A scan header cut off is not handed out: the header reader then knows the file ended before its scan
    /// (a `.truncated` error rather than `.corrupt`).
    @Test func aCutScanHeaderEndsBeforeTheScan() {
        let complete: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0, 3, 0x01]
        let cut: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0, 8, 0x01]
        #expect(Self.walk(cut).isEmpty)
        #expect(cut.withUnsafeBytes { JPEGMarkers(scanning: $0).endsBeforeScan })
        #expect(!complete.withUnsafeBytes { JPEGMarkers(scanning: $0).endsBeforeScan })
    }

    /// Stray and fill bytes before an EXIF segment: the decode reads its orientation and its metadata both
    /// (the metadata reader used to stop at the first stray byte), and the pixels are the clean file's.
    @Test func orientationAndMetadataReadTheSameSegments() throws {
        let jpeg = try JPEGTestSupport.baselineJPEG(width: 16, height: 16)
        let exif = MetadataSamples.exif(orientation: 6)
        let body = Array("Exif".utf8) + [0, 0] + [UInt8](exif)
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        let data = jpeg.prefix(2) + Data([0x12, 0x34, 0xFF, 0xFF] + segment) + jpeg.dropFirst(2)
        let image = try JPEGCoder().decode(data, options: .init(readsMetadata: true))
        #expect(image.orientation == .right)
        #expect(image.metadata == ImageMetadata(exif: exif))
        #expect(try image.pixels == JPEGCoder().decode(jpeg, options: .init()).pixels)
        #expect(try JPEGCoder().header(data).orientation == .right)
    }
}
