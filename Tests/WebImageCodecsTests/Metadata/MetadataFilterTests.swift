import Foundation
import Testing
import TestSupport
import WebImage

/// imgproxy's `keep_copyright` on each kind of metadata, and hostile EXIF read as none.
@Suite struct MetadataFilterTests {
    @Test(arguments: [true, false])
    func exifKeepsOnlyArtistAndCopyright(bigEndian: Bool) {
        let kept = ImageMetadata(exif: MetadataSamples.exif(bigEndian: bigEndian)).copyrightOnly
        #expect(kept == ImageMetadata(exif: MetadataSamples.copyrightEXIF(bigEndian: bigEndian)))
    }

    @Test func exifWithoutCopyrightKeepsNothing() {
        let camera = Data(MetadataSamples.tiff([MetadataSamples.ascii(0x010F, "Canon"), MetadataSamples.short(0x0112, 6)]))
        #expect(ImageMetadata(exif: camera).copyrightOnly == nil)
    }

    @Test func settingTheOrientationKeepsEverythingElse() {
        let turned = ImageMetadata(exif: MetadataSamples.exif(orientation: 6), xmp: MetadataSamples.xmp,
                                   iptc: MetadataSamples.iptc).settingEXIFOrientation(.up)
        #expect(turned == ImageMetadata(exif: MetadataSamples.exif(orientation: 1), xmp: MetadataSamples.xmp,
                                        iptc: MetadataSamples.iptc))
    }

    /// Structures an attacker writes: IFD0 past the end or inside the header, an entry count running past the
    /// end, a wrong magic number, junk. None is EXIF: nothing is kept, not even with everything kept.
    @Test(arguments: [
        [0x4D, 0x4D, 0, 42, 0x7F, 0xFF, 0xFF, 0xFF],
        [0x4D, 0x4D, 0, 42, 0, 0, 0, 4, 0, 1],
        [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0xFF, 0xFF, 0x82, 0x98, 0, 2, 0, 0, 0, 20, 0, 0, 0, 8],
        [0x49, 0x49, 43, 0, 8, 0, 0, 0],
        Array("not a tiff at all".utf8),
    ] as [[UInt8]])
    func hostileEXIFKeepsNothing(bytes: [UInt8]) {
        let metadata = ImageMetadata(exif: Data(bytes))
        #expect(metadata.copyrightOnly == nil)
        #expect(metadata.settingEXIFOrientation(.up).exif == nil)
    }

    /// A Copyright entry whose value lies past the end (a huge count, a wild offset) is not kept.
    @Test(arguments: [
        [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x98, 0x82, 2, 0, 0xFF, 0xFF, 0xFF, 0x7F, 0x10, 0, 0, 0, 0, 0, 0, 0],
        [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x98, 0x82, 2, 0, 40, 0, 0, 0, 0xF0, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0],
    ] as [[UInt8]])
    func copyrightOutOfRangeIsNotKept(bytes: [UInt8]) {
        #expect(ImageMetadata(exif: Data(bytes)).copyrightOnly == nil)
    }

    /// A Copyright entry whose IFD0 links back to itself: only IFD0 is read, so the loop is never followed.
    @Test func aLoopingIFDChainIsNotFollowed() {
        var bytes = MetadataSamples.tiff([MetadataSamples.ascii(0x8298, MetadataSamples.copyright)])
        bytes.replaceSubrange(22..<26, with: [0, 0, 0, 8])
        let kept = ImageMetadata(exif: Data(bytes)).copyrightOnly
        #expect(kept?.exif == Data(MetadataSamples.tiff([MetadataSamples.ascii(0x8298, MetadataSamples.copyright)])))
    }

    @Test func iptcKeepsByLineCreditAndCopyright() {
        #expect(ImageMetadata(iptc: MetadataSamples.iptc).copyrightOnly == ImageMetadata(iptc: MetadataSamples.copyrightIPTC))
    }

    @Test func iptcExtendedSizesAreRead() {
        let long = String(repeating: "x", count: 300)
        let extended = Data([0x1C, 2, 116, 0x80, 0x04, 0, 0, 0x01, 0x2C] + Array(long.utf8) + MetadataSamples.dataset(2, 5, "t"))
        #expect(ImageMetadata(iptc: extended).copyrightOnly?.iptc == Data([0x1C, 2, 116, 0x80, 0x04, 0, 0, 0x01, 0x2C] + Array(long.utf8)))
    }

    @Test(arguments: [
        [0x1C, 2, 116, 0, 50, 65],
        [0x1C, 2, 116, 0x80, 0x09, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [0x1C, 2, 116, 0, 1, 65, 0x42],
        [0x1C, 2],
    ] as [[UInt8]])
    func malformedIPTCKeepsNothing(bytes: [UInt8]) {
        #expect(ImageMetadata(iptc: Data(bytes)).copyrightOnly == nil)
    }

    @Test func xmpKeepsDublinCoreRightsAndCreativeCommons() throws {
        let kept = try #require(ImageMetadata(xmp: MetadataSamples.xmp).copyrightOnly?.xmp)
        let text = String(decoding: kept, as: UTF8.self)
        for present in ["<dc:rights>", MetadataSamples.copyright, "<dc:creator>", MetadataSamples.artist,
                        "xmpRights:Marked=\"True\"", "<cc:license", "https://creativecommons.org/licenses/by/4.0/",
                        "<?xpacket begin=", "<?xpacket end=\"w\"?>", "rdf:about=\"\""] {
            #expect(text.contains(present), "\(present) is missing from \(text)")
        }
        for absent in ["dc:title", "Harbour", "dc:subject", "CreatorTool", "photoshop", "Lisbon", "exif:", "GPSLatitude",
                       "tiff:Orientation"] {
            #expect(!text.contains(absent), "\(absent) was kept in \(text)")
        }
        // What is kept parses again and is kept whole a second time.
        #expect(ImageMetadata(xmp: kept).copyrightOnly?.xmp == kept)
    }

    @Test(arguments: [
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:Rating=\"5\"/></rdf:RDF></x:xmpmeta>",
        "<?xml version=\"1.0\"?><!DOCTYPE lol [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]>"
            + "<x xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:rights>&b;</dc:rights></x>",
        "<x:xmpmeta><rdf:RDF><unclosed",
        "",
    ])
    func xmpWithNothingKeptOrUnreadableKeepsNothing(packet: String) {
        #expect(ImageMetadata(xmp: Data(packet.utf8)).copyrightOnly == nil)
    }
}
