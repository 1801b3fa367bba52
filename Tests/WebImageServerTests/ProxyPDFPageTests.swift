import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

extension ProxyPDFTests {
    /// imgproxy Pro's `page` and `pages` on PDF sources: a page planned on its own size, pages stacked top to
    /// bottom and left-aligned at one scale, each drawn in its own child. Nested in ``ProxyPDFTests``, so it runs
    /// serialized with the tests that count this process's PDF children.
    @Suite struct Pages {
        static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255]
        static let blue: [UInt8] = [0, 0, 255, 255], clear: [UInt8] = [0, 0, 0, 0]

        /// Three pages of three sizes and colours: 40 × 30 red, 60 × 20 green, 30 × 50 blue.
        static let document = PDFSamples.colouredPages([(40, 30, "1 0 0"), (60, 20, "0 1 0"), (30, 50, "0 0 1")])

        /// A `width × height` raster whose pixel at (x, y) is `colour(x, y)`.
        static func painted(_ width: Int, _ height: Int, _ colour: (Int, Int) -> [UInt8]) -> PixelBuffer {
            PixelBuffer(width: width, height: height,
                        bytes: (0..<height).flatMap { y in (0..<width).flatMap { x in colour(x, y) } })
        }

        /// The PNG result of `options` on `/pages.pdf`, straight RGBA8.
        static func result(_ harness: ProxyHarness, _ options: String) async throws -> PixelBuffer {
            let answer = try await harness.get(harness.signedPath(options, source: "/pages.pdf", ext: "png"))
            #expect(answer.status == 200, "\(options): \(answer.text)")
            return try answer.image().pixels.converted(to: .rgba8)
        }

        @Test func aPageIsPlannedOnItsOwnSizeAndDrawnAtTheResultSize() async throws {
            let sizes = try TestCorpus.data("pdf/sizes.pdf")
            var direct = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 649, height: 323), preserveAspectRatio: false)
            direct.coderOptions[PDFPage.self] = 1
            let secondOfSizes = try PDFCoder().decode(sizes, options: direct).pixels.converted(to: .rgba8)
            try await ProxyHarness.with(try ProxyPDFTests.configuration()) { harness in
                harness.serve("/pages.pdf", Self.document, contentType: "application/pdf")
                harness.serve("/sizes.pdf", sizes, contentType: "application/pdf")
                #expect(try await Self.result(harness, "pg:1") == Self.painted(60, 20) { _, _ in Self.green })
                // Twice the page's size: drawn at it, not enlarged from the page's raster.
                #expect(try await Self.result(harness, "pg:2/w:60") == Self.painted(60, 100) { _, _ in Self.blue })
                // pdf.js's `sizes.pdf`: a 612 × 792 page, then a 649 × 323 one, as poppler draws it.
                let answer = try await harness.get(harness.signedPath("pg:1", source: "/sizes.pdf", ext: "png"))
                #expect(answer.status == 200, "\(answer.text)")
                let second = try answer.image().pixels.converted(to: .rgba8)
                #expect(second.size == PixelSize(width: 649, height: 323))
                #expect(second == secondOfSizes)
            }
            #expect(ProxyPDFTests.pdfChildren() == 0)
        }

        @Test func pagesAreStackedTopToBottomLeftAlignedThenProcessedAsOne() async throws {
            try await ProxyHarness.with(try ProxyPDFTests.configuration()) { harness in
                harness.serve("/pages.pdf", Self.document, contentType: "application/pdf")
                // The red page's last row over the green page's first: the seam at row 30; the red page leaves
                // the 20 columns right of it transparent.
                #expect(try await Self.result(harness, "pgs:2") == Self.painted(60, 50) { x, y in
                    y >= 30 ? Self.green : x < 40 ? Self.red : Self.clear
                })
                // 60 × 70 stacked, resized to 30 × 35: each page drawn at half its size.
                #expect(try await Self.result(harness, "pg:1/pgs:2/w:30") == Self.painted(30, 35) { x, y in
                    y < 10 ? Self.green : x < 15 ? Self.blue : Self.clear
                })
                #expect(try await Self.result(harness, "pg:2/pgs:5") == Self.painted(30, 50) { _, _ in Self.blue },
                        "past the end: fewer")
                let beyond = try await harness.get(harness.signedPath("pg:3", source: "/pages.pdf", ext: "png"))
                #expect(beyond.status == 422)
                #expect(beyond.text == "cannot process: page 3 was asked of a source of 3 pages\n", "\(beyond.text)")
            }
            #expect(ProxyPDFTests.pdfChildren() == 0)
        }

        /// The stack is checked from the pages' headers: over the source limit it is refused before a child
        /// starts (the renderer here cannot start, so a page drawn would answer 503), and a page alone never is.
        @Test func pagesStackedOverTheSourceLimitAreRefusedBeforeAnyIsDrawn() async throws {
            let configuration = try ProxyPDFTests.configuration {
                $0.limits.maxSourcePixels = 60 * 50 - 1
                $0.processing.pdfRendering.executable = URL(fileURLWithPath: "/nonexistent/webimage")
            }
            try await ProxyHarness.with(configuration) { harness in
                harness.serve("/pages.pdf", Self.document, contentType: "application/pdf")
                let stacked = try await harness.get(harness.signedPath("pgs:2", source: "/pages.pdf", ext: "png"))
                #expect(stacked.status == 422)
                #expect(stacked.text == "cannot process: the stack of 2 pages is 60x50, over the limit of 2999 pixels\n",
                        "\(stacked.text)")
                let alone = try await harness.get(harness.signedPath("pg:1", source: "/pages.pdf", ext: "png"))
                #expect(alone.status == 503 && alone.text.contains("cannot start"), "\(alone.text)")
            }
        }
    }
}
