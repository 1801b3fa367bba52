import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// `/info`'s default answer and its metadata over real HTTP: imgproxy Pro's fields, EXIF by libexif's titles or
/// names, IPTC, Photoshop's resolution and XMP.
@Suite struct InfoMetadataTests {
    static let iptc = #""iptc":{"By-line":["Jane Doe"],"City":"Lisbon","Copyright Notice":"(c) 2024 Jane Doe","#
        + #""Credit":"Agency","Keywords":["boats"],"Name":"Harbour","Record Version":4}"#
    static let photoshop = #""photoshop":{"resolution":{"HeightUnit":"cm","WidthUnit":"inches","XResolution":72,"#
        + #""XResolutionUnit":"inches","YResolution":300,"YResolutionUnit":"cm"}}"#
    static let xmp = #""xmp":{"cc":{"license":"https://creativecommons.org/licenses/by/4.0/"},"dc":{"creator":["Jane Doe"],"#
        + #""rights":"(c) 2024 Jane Doe","subject":["boats"],"title":"Harbour"},"exif":{"GPSLatitude":"38,42.5N"},"#
        + #""photoshop":{"City":"Lisbon"},"tiff":{"Orientation":"6"},"xmp":{"CreatorTool":"Lightroom"},"#
        + #""xmpRights":{"Marked":"True"}}"#

    /// The default answer: size, format and MIME type, the upright size with EXIF orientation 6 (40 × 30
    /// stored, 30 × 40 shown), EXIF by libexif's titles and texts, IPTC, Photoshop's resolution, XMP.
    @Test func theDefaultAnswer() async throws {
        let photo = try InfoSamples.photo()
        try await ProxyHarness.with { harness in
            harness.serve("/photo.jpg", photo)
            let answer = try await harness.get("/info" + harness.signedPath("", source: "/photo.jpg"))
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "application/json")
            let exif = #""exif":{"Artist":"Jane Doe","Copyright":"(c) 2024 Jane Doe (Photographer) - [None] (Editor)","#
                + #""East or West Longitude":"E","Manufacturer":"Canon","Model":"Canon EOS R5","#
                + #""North or South Latitude":"N","Orientation":"Right-top","Software":"Lightroom"}"#
            #expect(answer.text == "{" + exif + #","format":"jpeg","height":40,"# + Self.iptc
                    + #","mime_type":"image/jpeg","orientation":6,"# + Self.photoshop + #","size":\#(photo.count),"#
                    + #""width":30,"# + Self.xmp + "}")
        }
    }

    /// `exif:1:1`: libexif's tag names; `exif:0`, `iptc:0`, `xmp:0`, `s:0`, `f:0` and `d:0` leave their fields out.
    @Test func canonicalNamesAndSwitchedOffFields() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/photo.jpg", try InfoSamples.photo())
            let canonical = try await harness.get("/info" + harness.signedPath("exif:1:1/iptc:0/xmp:0/s:0/f:0/d:0",
                                                                               source: "/photo.jpg"))
            #expect(canonical.text == #"{"exif":{"Artist":"Jane Doe","#
                    + #""Copyright":"(c) 2024 Jane Doe (Photographer) - [None] (Editor)","GPSLatitudeRef":"N","#
                    + #""GPSLongitudeRef":"E","Make":"Canon","Model":"Canon EOS R5","Orientation":"Right-top","#
                    + #""Software":"Lightroom"}}"#)
            let nothing = try await harness.get("/info" + harness.signedPath("exif:0/iptc:false/xmp:f/size:0/format:0/dimensions:0",
                                                                             source: "/photo.jpg"))
            #expect(nothing.text == "{}")
        }
    }

    /// A source without metadata answers the cheap fields only: what the old `/info` (format, width, height,
    /// frames) became.
    @Test func aPlainPNGAnswersTheCheapFields() async throws {
        let png = try Fixtures.png(20, 10, alpha: true)
        try await ProxyHarness.with { harness in
            harness.serve("/a.png", png)
            let answer = try await harness.get("/info" + harness.signedPath("", source: "/a.png"))
            #expect(answer.text == #"{"format":"png","height":10,"mime_type":"image/png","orientation":1,"size":\#(png.count),"width":20}"#)
            let more = try await harness.get("/info" + harness.signedPath("cs:1/b:1/sf:1/pn:1/a:1/chs:md5:sha1/s:0/f:0/d:0",
                                                                          source: "/a.png"))
            let md5 = ProcessingOptions.Hashsum(algorithm: .md5, digest: ProcessingOptions.Hashsum.Algorithm.md5.digest(png)).hex
            let sha1 = ProcessingOptions.Hashsum(algorithm: .sha1, digest: ProcessingOptions.Hashsum.Algorithm.sha1.digest(png)).hex
            #expect(more.text == #"{"alpha":{"alpha":true},"bands":4,"colorspace":"srgb","hashsums":{"md5":"\#(md5)","#
                    + #""sha1":"\#(sha1)"},"pages_number":1,"sample_format":"uchar"}"#)
        }
    }

    /// EXIF that libexif cannot read (a TIFF header pointing past its end), IPTC whose dataset runs past its
    /// segment and an XMP packet that is not XML are left out; the answer is still 200, at once.
    @Test func unreadableMetadataIsLeftOut() async throws {
        let cut = Data([0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08, 0x00, 0x40, 0x01, 0x0F, 0x00, 0x02, 0xFF, 0xFF, 0xFF])
        let metadata = ImageMetadata(exif: cut, xmp: Data("<x:xmpmeta><rdf:RDF".utf8),
                                     iptc: Data([0x1C, 0x02, 0x05, 0x7F, 0xFF, 0x41]))
        let jpeg = try Fixtures.encode(Image(pixels: Fixtures.pixels(8, 8)).with(metadata: metadata), .jpeg)
        try await ProxyHarness.with { harness in
            harness.serve("/cut.jpg", jpeg)
            let started = ContinuousClock.now
            let answer = try await harness.get("/info" + harness.signedPath("", source: "/cut.jpg"))
            #expect(answer.status == 200)
            #expect(answer.text == #"{"format":"jpeg","height":8,"mime_type":"image/jpeg","orientation":1,"size":\#(jpeg.count),"width":8}"#)
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }
}
