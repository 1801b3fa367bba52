import Foundation
import Testing
import TestSupport
import WebImage

/// Hostile PDFs in process: what they decode to and that nothing outside is fetched. Their time and memory are
/// measured in a child process by `PDFHostileRunTests` (WebImageCLITests).
@Suite struct PDFHostileTests {
    typealias Support = PDFTestSupport

    @Test func nothingAPageReferencesIsFetched() async throws {
        let server = try await TestHTTPServer.start()
        let origin = server.url("").absoluteString
        let data = PDFSamples.externalReferences(url: String(origin.dropLast(origin.hasSuffix("/") ? 1 : 0)))
        let image = try PDFCoder().decode(data, options: ImageDecodeOptions())
        #expect(image.pixels.rgba8(x: 20, y: 20) == [255, 0, 0, 255])
        #expect(try PDFCoder().header(data).pageCount == 1)
        #expect(server.totalRequestCount == 0)
        try await server.shutdown()
    }

    @Test func aHugeMediaBoxIsRefusedByThePixelLimit() throws {
        let data = PDFSamples.page(width: 14_400_000, height: 14_400_000)
        #expect(Support.failure { try PDFCoder().decode(data, options: ImageDecodeOptions()) }
            == "1001 too many pixels: 14400000x14400000 is over the limit of 100000000 pixels per frame")
        let thumbnail = try PDFCoder().decode(data, options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64)))
        #expect(thumbnail.pixelSize == PixelSize(width: 64, height: 64))
    }

    @Test func tenThousandPagesOpenWithTheirCount() throws {
        let data = PDFSamples.manyPages(10_000)
        #expect(try PDFCoder().header(data).pageCount == 10_000)
        let last = try PDFCoder().decode(data, options: Support.options { $0.coderOptions[PDFPage.self] = 9_999 })
        // Page 9999 draws from x = 9999 % 80 = 79.
        #expect(last.pixels.rgba8(x: 79, y: 25) == [255, 0, 0, 255])
        #expect(last.pixels.rgba8(x: 78, y: 25) == [0, 0, 0, 0])
    }

    @Test func aFormThatDrawsItselfEnds() throws {
        let image = try PDFCoder().decode(PDFSamples.recursiveForm(), options: ImageDecodeOptions())
        #expect(image.pixels.rgba8(x: 20, y: 20) == [255, 0, 0, 255])
    }
}
