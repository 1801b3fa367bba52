import Foundation
import Testing
import TestSupport
import WebImage

/// SVGZ (gzip-compressed SVG) through the library: claimed by the SVG coder when its inflated start is an SVG
/// root, drawn as the document it holds, and inflated never past the byte limit nor 100 times its size.
@Suite struct SVGZTests {
    static func reason(_ body: () throws -> Void) -> BadImageDataReason? { PNGTestBytes.badDataReason(body) }

    @Test func anSVGZDecodesAsTheDocumentItHolds() throws {
        let svgz = SVGZSamples.compressed()
        // Sniffing reads no compression; the SVG coder claims the bytes.
        #expect(ImageFormat(sniffing: svgz) == .undefined)
        #expect(SVGZ.isSVGZ(svgz) && SVGCoder().canDecode(svgz))
        #expect(CodersManager.shared.decoder(for: svgz) is SVGCoder)
        #expect(try SVGZ.inflate(svgz) == SVGZSamples.drawing)
        #expect(try CodersManager.shared.header(for: svgz) == CodersManager.shared.header(for: SVGZSamples.drawing))
        for options in [ImageDecodeOptions(), ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 300, height: 300))] {
            let image = try CodersManager.shared.decode(svgz, options: options)
            let reference = try CodersManager.shared.decode(SVGZSamples.drawing, options: options)
            #expect(image.format == .svg && image.isVector)
            #expect(image.pixelSize == reference.pixelSize && image.pixels == reference.pixels)
        }
    }

    @Test func gzipOfAnythingElseIsNotClaimed() throws {
        let png = try CodersManager.shared.encode(Image(frames: [ImageFrame(pixels: PixelBuffer(width: 4, height: 4))]),
                                                  as: .png, options: ImageEncodeOptions())
        for text in [ContentEncoding.gzip(png), ContentEncoding.gzip(Data("<html><svg></svg></html>".utf8)),
                     Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF]) + Data("not deflate at all".utf8), Data([0x1F, 0x8B])] {
            #expect(!SVGZ.isSVGZ(text) && !SVGCoder().canDecode(text))
            #expect(Self.reason { _ = try CodersManager.shared.decode(text, options: ImageDecodeOptions()) }
                == .unsupportedFormat(.undefined))
        }
        // A plain SVG is no SVGZ: the coder reads it as it is.
        #expect(!SVGZ.isSVGZ(SVGZSamples.drawing) && SVGCoder().canDecode(SVGZSamples.drawing))
    }

    @Test func aCutOrCorruptStreamIsRefused() throws {
        let document = SVGZSamples.rectangles(500)
        let svgz = SVGZSamples.compressed(document)
        // The start inflates to an SVG root: sniffed as one, refused whole.
        let cut = svgz.prefix(svgz.count / 2)
        #expect(SVGZ.isSVGZ(cut))
        #expect(Self.reason { _ = try CodersManager.shared.decode(cut, options: ImageDecodeOptions()) } == .truncated)
        var corrupt = svgz
        corrupt[svgz.count / 2] ^= 0xFF
        corrupt[svgz.count / 2 + 1] ^= 0xFF
        let reason = Self.reason { _ = try SVGZ.inflate(corrupt) }
        guard case .corrupt(let message) = reason else {
            Issue.record("expected a corrupt stream, got \(String(describing: reason))")
            return
        }
        #expect(message.hasPrefix("zlib: "))
    }

    /// A 20 MB run of spaces after an `<svg>` root, compressed about 1,000 times: refused once it inflates past
    /// 100 times its size, before the document is parsed.
    @Test func aGzipBombStopsAtTheRatioLimit() throws {
        let bomb = SVGZSamples.bomb(inflatedBytes: 20_000_000)
        #expect(bomb.count < 100_000)
        #expect(SVGZ.isSVGZ(bomb) && CodersManager.shared.decoder(for: bomb) is SVGCoder)
        let limit = bomb.count * SVGZ.maxRatio
        #expect(Self.reason { _ = try CodersManager.shared.decode(bomb, options: ImageDecodeOptions()) }
            == .inflatesTooLarge(limit: limit))
        #expect(Self.reason { _ = try CodersManager.shared.header(for: bomb) } == .inflatesTooLarge(limit: limit))
        #expect(Self.reason { _ = try SVGZ.inflate(bomb, maxBytes: 1_000) } == .inflatesTooLarge(limit: 1_000))
    }

    /// The byte limit holds for a document well within the ratio: exactly its size inflates, a byte less does not.
    @Test func theByteLimitHolds() throws {
        let document = SVGZSamples.rectangles(2_000)
        let svgz = SVGZSamples.compressed(document)
        #expect(document.count < svgz.count * 10)
        #expect(try SVGZ.inflate(svgz, maxBytes: document.count) == document)
        #expect(Self.reason { _ = try SVGZ.inflate(svgz, maxBytes: document.count - 1) }
            == .inflatesTooLarge(limit: document.count - 1))
        #expect(WebImageError.badImageData(.inflatesTooLarge(limit: 7)).description
            == "the compressed document inflates past 7 bytes (a decompression bomb); inflating stopped there")
    }
}
