import Foundation
import Testing
import WebImage

/// Orientation stated only in an XMP packet (as phone photo editors write it) is reported for JPEG, PNG and
/// WebP; EXIF wins where both are present. Every container is assembled here.
@Suite struct XMPOrientationTests {
    /// An XMP packet stating orientation `value`, as an rdf:Description attribute or as an element.
    static func packet(_ value: Int, asElement: Bool) -> [UInt8] {
        let property = asElement ? "<tiff:Orientation>\(value)</tiff:Orientation>" : ""
        let attribute = asElement ? "" : " tiff:Orientation=\"\(value)\""
        let text = """
            <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/"\(attribute)>\(property)
            </rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>
            """
        return Array(text.utf8)
    }

    /// `jpeg` with APP1 segments inserted after SOI: EXIF first when given, then XMP.
    static func jpeg(_ jpeg: Data, xmp: [UInt8], exifValue: Int? = nil) -> Data {
        let namespace = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        let body = namespace + xmp
        var segments = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        if let exifValue {
            let exif = EXIFTestBytes.exifPrefix + EXIFTestBytes.tiff(exifValue)
            segments = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif + segments
        }
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: segments, at: 2)
        return Data(bytes)
    }

    /// `png` with an iTXt `XML:com.adobe.xmp` chunk after IHDR (and an eXIf chunk when `exifValue` is given).
    static func png(_ png: Data, xmp: [UInt8], exifValue: Int? = nil) -> Data {
        var chunks = PNGTestBytes.chunks([UInt8](png))
        let text = Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + xmp
        chunks.insert(PNGTestBytes.Chunk(type: "iTXt", data: text), at: 1)
        if let exifValue { chunks.insert(PNGTestBytes.Chunk(type: "eXIf", data: EXIFTestBytes.tiff(exifValue)), at: 1) }
        return Data(PNGTestBytes.stream(chunks))
    }

    /// `webp` (simple lossless) made extended, with an `XMP ` chunk (and an EXIF chunk when `exifValue` is given).
    static func webp(_ webp: Data, canvas: PixelSize, xmp: [UInt8], exifValue: Int? = nil) -> Data {
        var chunks = EXIFTestBytes.riffChunks([UInt8](webp))
        let width = EXIFTestBytes.le32(UInt32(canvas.width - 1)).prefix(3)
        let height = EXIFTestBytes.le32(UInt32(canvas.height - 1)).prefix(3)
        chunks.insert((tag: "VP8X", body: [exifValue == nil ? 0x04 : 0x0C, 0, 0, 0] + width + height), at: 0)
        if let exifValue { chunks.append((tag: "EXIF", body: EXIFTestBytes.tiff(exifValue))) }
        chunks.append((tag: "XMP ", body: xmp))
        var body = Array("WEBP".utf8)
        for chunk in chunks {
            body += Array(chunk.tag.utf8) + EXIFTestBytes.le32(UInt32(chunk.body.count)) + chunk.body
            if chunk.body.count % 2 == 1 { body.append(0) }
        }
        return Data(Array("RIFF".utf8) + EXIFTestBytes.le32(UInt32(body.count)) + body)
    }

    private var pattern: Image { Image(pixels: EXIFTestBytes.pattern()) }

    @Test(arguments: [(6, false), (8, true), (3, false), (5, true)])
    func jpegReportsXMPOrientation(value: Int, asElement: Bool) throws {
        let plain = try JPEGCoder().encode(pattern, as: .jpeg, options: .init())
        let data = Self.jpeg(plain, xmp: Self.packet(value, asElement: asElement))
        #expect(try JPEGCoder().decode(data, options: .init()).orientation == ImageOrientation(exifValue: value))
        let progressive = JPEGCoder().makeProgressiveDecoder(options: .init())
        #expect(try progressive.decode(data, isFinished: true)?.orientation == ImageOrientation(exifValue: value))
    }

    @Test(arguments: [(6, false), (7, true)])
    func pngReportsXMPOrientation(value: Int, asElement: Bool) throws {
        let plain = try PNGCoder().encode(pattern, as: .png, options: .init())
        let data = Self.png(plain, xmp: Self.packet(value, asElement: asElement))
        try EXIFTestBytes.expectOrientation(data, decodedBy: PNGCoder(), exifValue: value)
    }

    @Test(arguments: [(6, false), (2, true)])
    func webpReportsXMPOrientation(value: Int, asElement: Bool) throws {
        let plain = try WebPCoder().encode(pattern, as: .webp, options: .init(lossless: true))
        let data = Self.webp(plain, canvas: PixelSize(width: 4, height: 3), xmp: Self.packet(value, asElement: asElement))
        try EXIFTestBytes.expectOrientation(data, decodedBy: WebPCoder(), exifValue: value)
    }

    @Test func exifWinsOverXMP() throws {
        let xmp = Self.packet(6, asElement: false)
        let jpeg = Self.jpeg(try JPEGCoder().encode(pattern, as: .jpeg, options: .init()), xmp: xmp, exifValue: 3)
        #expect(try JPEGCoder().decode(jpeg, options: .init()).orientation == .down)
        let png = Self.png(try PNGCoder().encode(pattern, as: .png, options: .init()), xmp: xmp, exifValue: 3)
        #expect(try PNGCoder().decode(png, options: .init()).orientation == .down)
        let webp = Self.webp(try WebPCoder().encode(pattern, as: .webp, options: .init(lossless: true)),
                             canvas: PixelSize(width: 4, height: 3), xmp: xmp, exifValue: 3)
        #expect(try WebPCoder().decode(webp, options: .init()).orientation == .down)
    }

    /// Packets without a usable value read as `.up`.
    @Test(arguments: ["<x tiff:Orientation=\"12\"/>", "<x tiff:Orientation=\"0\"/>", "<x tiff:Orientation/>",
                      "<tiff:Orientation>x</tiff:Orientation>", "tiff:Orientation", ""])
    func unusableValuesAreIgnored(text: String) throws {
        let plain = try JPEGCoder().encode(pattern, as: .jpeg, options: .init())
        #expect(try JPEGCoder().decode(Self.jpeg(plain, xmp: Array(text.utf8)), options: .init()).orientation == .up)
    }
}
