import Foundation
import Testing
import TestSupport
import WebImage

/// The PDF coder: sniffing, the page's size at 72 DPI × scale or at the thumbnail size asked for, transparent
/// background, the page option, the header without rendering, and typed errors.
@Suite struct PDFCoderTests {
    typealias Support = PDFTestSupport
    let red: [UInt8] = [255, 0, 0, 255]
    let clear: [UInt8] = [0, 0, 0, 0]

    @Test func aPageRendersAtOnePixelPerPointOnATransparentBackground() throws {
        let image = try PDFCoder().decode(PDFSamples.page(), options: ImageDecodeOptions())
        #expect(image.pixelSize == PixelSize(width: 100, height: 50))
        #expect(image.format == .pdf)
        #expect(image.isVector)
        #expect(image.hasAlpha)
        #expect(!image.isThumbnail)
        #expect(image.scale == 1)
        // The rectangle 10 10 80 30 (from the bottom left) covers rows 10..<40 and columns 10..<90.
        #expect(image.pixels.rgba8(x: 10, y: 10) == red)
        #expect(image.pixels.rgba8(x: 89, y: 39) == red)
        #expect(image.pixels.rgba8(x: 9, y: 25) == clear)
        #expect(image.pixels.rgba8(x: 50, y: 40) == clear)
        #expect(image.memoryCost == 100 * 50 * 4)
    }

    @Test func theScaleMultipliesThePageSize() throws {
        let data = PDFSamples.page()
        let byFactor = try PDFCoder().decode(data, options: ImageDecodeOptions(scaleFactor: 2))
        #expect(byFactor.pixelSize == PixelSize(width: 200, height: 100))
        #expect(byFactor.scale == 2)
        #expect(byFactor.size == (width: 100, height: 50))
        #expect(byFactor.pixels.rgba8(x: 20, y: 20) == red)
        #expect(byFactor.pixels.rgba8(x: 19, y: 20) == clear)
        let byKey = try PDFCoder().decode(data, options: ImageDecodeOptions(cacheKey: "https://example.com/doc@3x.pdf"))
        #expect(byKey.pixelSize == PixelSize(width: 300, height: 150))
        #expect(byKey.scale == 3)
    }

    @Test func aThumbnailIsRasterisedAtTheSizeAskedForUpOrDown() throws {
        let data = PDFSamples.page()
        let cases: [(PixelSize, Bool, PixelSize)] = [
            (PixelSize(width: 400, height: 400), true, PixelSize(width: 400, height: 200)),
            (PixelSize(width: 40, height: 40), true, PixelSize(width: 40, height: 20)),
            (PixelSize(width: 30, height: 60), false, PixelSize(width: 30, height: 60)),
            (PixelSize(width: 1000, height: 100), true, PixelSize(width: 200, height: 100)),
        ]
        for (requested, keepsAspect, expected) in cases {
            let image = try PDFCoder().decode(data, options: ImageDecodeOptions(
                thumbnailPixelSize: requested, preserveAspectRatio: keepsAspect))
            #expect(image.pixelSize == expected, "\(requested) keeping aspect \(keepsAspect)")
            #expect(image.isThumbnail)
            #expect(image.isVector)
        }
        let large = try PDFCoder().decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 400, height: 400)))
        // Rendered at 4 pixels a point, not resampled: the rectangle's edge is sharp.
        #expect(large.pixels.rgba8(x: 40, y: 40) == red)
        #expect(large.pixels.rgba8(x: 39, y: 40) == clear)
    }

    @Test func theScaleDownLimitShrinksTheRaster() throws {
        let image = try PDFCoder().decode(PDFSamples.page(width: 1000, height: 500),
                                          options: ImageDecodeOptions(scaleDownLimitBytes: 500 * 250 * 4))
        #expect(image.pixelSize == PixelSize(width: 500, height: 250))
    }

    @Test func thePageOptionChoosesThePageAndNamesTheCountWhenOutOfRange() throws {
        let data = PDFSamples.manyPages(3)
        let third = try PDFCoder().decode(data, options: Support.options { $0.coderOptions[PDFPage.self] = 2 })
        // Page i draws its rectangle from x = i.
        #expect(third.pixels.rgba8(x: 2, y: 25) == red)
        #expect(third.pixels.rgba8(x: 1, y: 25) == clear)
        let first = try PDFCoder().decode(data, options: ImageDecodeOptions())
        #expect(first.pixels.rgba8(x: 0, y: 25) == red)
        for page in [3, -1] {
            #expect(Support.failure {
                try PDFCoder().decode(data, options: Support.options { $0.coderOptions[PDFPage.self] = page })
            } == "1001 frame \(page) out of range (the image has 3)")
        }
    }

    @Test func theHeaderGivesThePageCountAndTheFirstPageSizeWithoutRendering() throws {
        let header = try PDFCoder().header(PDFSamples.manyPages(12))
        #expect(header == ImageHeader(format: .pdf, pixelSize: PixelSize(width: 100, height: 50), hasAlpha: true,
                                      pageCount: 12))
        #expect(header.frameCount == 1)
        let huge = try PDFCoder().header(PDFSamples.page(width: 14_400_000, height: 14_400_000))
        #expect(huge.pixelSize == PixelSize(width: 14_400_000, height: 14_400_000))
        #expect(try PDFCoder().header(PDFSamples.page(width: 612.4, height: 791.6)).pixelSize
            == PixelSize(width: 612, height: 792))
    }

    @Test func eachPagesHeaderGivesItsOwnSize() throws {
        let data = PDFSamples.colouredPages([(40, 30, "1 0 0"), (60, 20, "0 1 0"), (30, 50, "0 0 1")])
        let sizes = [PixelSize(width: 40, height: 30), PixelSize(width: 60, height: 20), PixelSize(width: 30, height: 50)]
        #expect(try PDFCoder().headers(data, pages: 0..<3) == sizes.map {
            ImageHeader(format: .pdf, pixelSize: $0, hasAlpha: true, pageCount: 3)
        })
        #expect(try PDFCoder().headers(data, pages: 1..<9).map(\.pixelSize) == Array(sizes[1...]), "cut at the last")
        #expect(try PDFCoder().header(data) == PDFCoder().headers(data, pages: 0..<1)[0])
        #expect(try PDFCoder().headers(data, pages: 2..<2).isEmpty)
        #expect(Support.failure { try PDFCoder().headers(data, pages: 3..<4) } == "1001 frame 3 out of range (the image has 3)")
    }

    /// Not a default coder (as SDWebImage's PDF plugin): the shared manager refuses PDFs until it is added.
    @Test func pdfIsDecodedOnceTheCoderIsAdded() throws {
        let data = PDFSamples.page()
        #expect(PDFCoder().canDecode(data))
        #expect(!PDFCoder().canDecode(Data("%PNG".utf8)))
        #expect(Support.failure { try CodersManager.shared.decode(data, options: ImageDecodeOptions()) }
            == "1001 unsupported format: no coder decodes pdf")
        let coders = CodersManager(coders: BuiltInCoders.makeAll() + [PDFCoder()])
        let image = try coders.decode(data, options: ImageDecodeOptions())
        #expect(image.format == .pdf && image.isVector)
        #expect(!PDFCoder().canEncode(to: .pdf))
        #expect(Support.failure { try PDFCoder().encode(image, as: .pdf, options: ImageEncodeOptions()) }
            == "1100 cannot encode pdf: PDFCoder only decodes")
    }

    @Test func theReusingDecodeGivesTheSamePixels() throws {
        let data = PDFSamples.page()
        var buffer = PixelBuffer(width: 300, height: 300)
        let reused = try PDFCoder().decode(data, reusing: &buffer, options: ImageDecodeOptions())
        let fresh = try PDFCoder().decode(data, options: ImageDecodeOptions())
        #expect(reused.pixels == fresh.pixels)
    }

    @Test func theRasterObeysThePixelLimitBeforeAllocating() throws {
        let data = PDFSamples.page(width: 1000, height: 1000)
        #expect(Support.failure { try PDFCoder().decode(data, options: ImageDecodeOptions(maxPixelCount: 999_999)) }
            == "1001 too many pixels: 1000x1000 is over the limit of 999999 pixels per frame")
        let thumbnail = try PDFCoder().decode(data, options: ImageDecodeOptions(
            thumbnailPixelSize: PixelSize(width: 100, height: 100), maxPixelCount: 999_999))
        #expect(thumbnail.pixelSize == PixelSize(width: 100, height: 100))
        #expect(Support.failure {
            try PDFCoder().decode(data, options: ImageDecodeOptions(scaleFactor: 2))
        } == nil)
        #expect(Support.failure {
            try PDFCoder().decode(PDFSamples.page(width: 40_000, height: 10), options: ImageDecodeOptions())
        } == "1001 corrupt image data: a 40000x10 PDF raster is over cairo's 32767-pixel side")
    }

    @Test func emptyDamagedAndEncryptedDocumentsAreTypedErrors() throws {
        let data = PDFSamples.page()
        #expect(Support.failure { try PDFCoder().decode(Data(), options: ImageDecodeOptions()) } == "1001 empty image data")
        for cut in [9, 20, 60] {
            let failure = Support.failure { try PDFCoder().decode(data.prefix(cut), options: ImageDecodeOptions()) }
            #expect(failure?.hasPrefix("1001 corrupt image data: PDF: ") == true, "cut at \(cut): \(failure ?? "no error")")
            #expect(Support.failure { try PDFCoder().header(data.prefix(cut)) } == failure)
        }
        let encrypted = try TestCorpus.data("pdf/issue6010_1.pdf")
        let failure = Support.failure { try PDFCoder().decode(encrypted, options: ImageDecodeOptions()) }
        #expect(failure?.hasPrefix("1001 corrupt image data: the PDF is encrypted and needs a password") == true,
                "\(failure ?? "no error")")
    }

    @Test func aCancelledTokenStopsTheRender() throws {
        let token = WorkCancellation()
        token.cancel()
        #expect(Support.failure { try token.run { try PDFCoder().decode(PDFSamples.page(), options: ImageDecodeOptions()) } }
            == "2002 cancelled")
    }
}
