import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// imgproxy's `strip_metadata` and `keep_copyright`: by default a result carries only the copyright (EXIF Artist
/// and Copyright, IPTC by-line, credit and copyright notice, XMP `dc`/`xmpRights`/`cc`); `kcr:0` drops it all,
/// `sm:0` keeps all of it with the EXIF orientation set to 1 (the pixels are upright).
@Suite struct ProxyMetadataTests {
    /// A 40×30 JPEG stored turned (EXIF orientation 6) with a camera's EXIF, an XMP packet and IPTC.
    static func source() throws -> Data {
        var bytes: [UInt8] = []
        for y in 0..<30 {
            for x in 0..<40 { bytes += [UInt8(x * 6), UInt8(y * 8), 90, 255] }
        }
        let image = Image(frames: [ImageFrame(pixels: PixelBuffer(width: 40, height: 30, format: .rgba8, bytes: bytes))],
                          orientation: .right,
                          metadata: ImageMetadata(exif: MetadataSamples.exif(orientation: 6), xmp: MetadataSamples.xmp,
                                                  iptc: MetadataSamples.iptc))
        return try CodersManager.shared.encode(image, as: .jpeg, options: .init(quality: 0.9))
    }

    static func metadata(of answer: ProxyHarness.Answer) throws -> ImageMetadata? {
        try CodersManager.shared.decode(answer.body, options: .init(readsMetadata: true)).metadata
    }

    static func expectCopyrightXMP(_ xmp: Data?) throws {
        let text = String(decoding: try #require(xmp), as: UTF8.self)
        #expect(text.contains(MetadataSamples.copyright) && text.contains(MetadataSamples.artist)
                && text.contains("xmpRights:Marked") && text.contains("cc:license"))
        #expect(!text.contains("photoshop") && !text.contains("dc:title") && !text.contains("exif:")
                && !text.contains("tiff:Orientation"))
    }

    /// The default keeps the copyright, in every format that stores metadata (IPTC only in JPEG).
    @Test(arguments: ["jpg", "png", "webp", "avif"])
    func theDefaultKeepsOnlyTheCopyright(format: String) async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/source", try Self.source())
            let answer = try await harness.get(harness.signedPath("w:15/f:\(format)", source: "/source"))
            #expect(answer.status == 200, "\(answer.text)")
            let image = try answer.image()
            #expect(image.pixelSize == PixelSize(width: 15, height: 20))
            let metadata = try #require(try Self.metadata(of: answer))
            #expect(metadata.exif == MetadataSamples.copyrightEXIF())
            #expect(metadata.iptc == (format == "jpg" ? MetadataSamples.copyrightIPTC : nil))
            try Self.expectCopyrightXMP(metadata.xmp)
        }
    }

    @Test(arguments: ["kcr:0", "keep_copyright:false/sm:1"])
    func notKeepingTheCopyrightKeepsNothing(options: String) async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/source", try Self.source())
            let answer = try await harness.get(harness.signedPath("w:15/\(options)", source: "/source"))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try Self.metadata(of: answer) == nil)
        }
    }

    /// Everything is kept; the orientation says 1, as the pixels are upright.
    @Test(arguments: ["jpg", "webp"])
    func notStrippingKeepsEverythingUpright(format: String) async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/source", try Self.source())
            let answer = try await harness.get(harness.signedPath("w:15/sm:0/f:\(format)", source: "/source"))
            #expect(answer.status == 200, "\(answer.text)")
            let image = try answer.image()
            #expect(image.orientation == .up && image.pixelSize == PixelSize(width: 15, height: 20))
            #expect(try Self.metadata(of: answer) == ImageMetadata(exif: MetadataSamples.exif(orientation: 1),
                                                                   xmp: MetadataSamples.xmp,
                                                                   iptc: format == "jpg" ? MetadataSamples.iptc : nil))
        }
    }

    @Test func gifResultsCarryNone() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/source", try Self.source())
            let answer = try await harness.get(harness.signedPath("w:15/sm:0/f:gif", source: "/source"))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try Self.metadata(of: answer) == nil)
        }
    }

    /// The operator's defaults (`IMGPROXY_STRIP_METADATA`, `IMGPROXY_KEEP_COPYRIGHT`) apply to URLs that say
    /// nothing, and a URL overrides them.
    @Test func theOperatorsDefaultsApplyUnlessTheURLSays() async throws {
        let keepAll = ProxyHarness.configuration { $0.processing.stripsMetadata = false }
        try await ProxyHarness.with(keepAll) { harness in
            harness.serve("/source", try Self.source())
            let all = try await harness.get(harness.signedPath("w:15", source: "/source"))
            #expect(try Self.metadata(of: all)?.exif == MetadataSamples.exif(orientation: 1))
            let stripped = try await harness.get(harness.signedPath("w:15/sm:1", source: "/source"))
            #expect(try Self.metadata(of: stripped)?.exif == MetadataSamples.copyrightEXIF())
        }
        let keepNone = ProxyHarness.configuration { $0.processing.keepsCopyright = false }
        try await ProxyHarness.with(keepNone) { harness in
            harness.serve("/source", try Self.source())
            let none = try await harness.get(harness.signedPath("w:15", source: "/source"))
            #expect(try Self.metadata(of: none) == nil)
            let kept = try await harness.get(harness.signedPath("w:15/kcr:1", source: "/source"))
            #expect(try Self.metadata(of: kept)?.iptc == MetadataSamples.copyrightIPTC)
        }
    }

    /// Each choice is its own cache entry.
    @Test func theChoiceIsPartOfTheKey() {
        var options = ProcessingOptions()
        let keys = [(true, true), (true, false), (false, true)].map { strip, keep in
            options.stripMetadata = strip
            options.keepCopyright = keep
            return ResultKey.make(source: "https://example.com/a.jpg", options: options,
                                  format: FormatChoice(explicit: .jpeg, accept: nil,
                                                       negotiation: ImageProxyConfiguration.Negotiation(webp: .off, avif: .off)),
                                  encoding: EncodingDefaults(quality: 80, byFormat: [:]))
        }
        #expect(Set(keys).count == 3)
    }
}
