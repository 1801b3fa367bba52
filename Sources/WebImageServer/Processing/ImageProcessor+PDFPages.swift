import Foundation
import WebImage

/// imgproxy Pro's `page` and `pages` for PDF sources: the plan is made on the chosen page's own size (a PDF's
/// pages can differ), or on the chosen pages stacked; each page is drawn in a child of its own at the plan's
/// scale, and the pages stacked as a multi-page TIFF's are.
extension ImageProcessor {
    /// The pages of a PDF a result is made of.
    struct PDFPages: Sendable, Equatable {
        /// The first one, 0-based.
        var first: Int
        /// Each one's size at 72 DPI (the header's), from `first` on.
        var sizes: [PixelSize]

        /// What the plan starts from: the page's size, or the pages' stacked.
        var size: PixelSize { ImageProcessor.stackedSize(sizes) }
    }

    /// The pages `page` and `pages` choose of a PDF (by default the first, its size the header's, read while
    /// fetching), their sizes read in this process without drawing. A page past the last is refused with the
    /// page count; pages that stack over the source resolution limit are refused before any is drawn (a page
    /// alone never is: the vector guard scales it down).
    func pdfPages(_ data: Data, header: ImageHeader, options: ProcessingOptions) throws(ProxyError) -> PDFPages {
        guard let range = try pageRange(header: header, options: options), range != 0..<1 else {
            return PDFPages(first: 0, sizes: [header.pixelSize])
        }
        let sizes: [PixelSize]
        do {
            sizes = try PDFCoder().headers(data, pages: range).map(\.pixelSize)
        } catch {
            throw .unprocessable("the PDF's page sizes cannot be read: \(error)")
        }
        let pages = PDFPages(first: range.lowerBound, sizes: sizes)
        if sizes.count > 1 { try checkStack(pages.size, count: sizes.count, options: options) }
        return pages
    }

    /// `pages` drawn for a plan of `scale` on `base` (``vectorBase(_:options:)`` of their size), each in its own
    /// child, and stacked: a page alone at ``vectorRaster(base:scale:)``, stacked pages each at that one scale
    /// of its own size, so that the stack is the plan's raster.
    func drawPDF(_ data: Data, pages: PDFPages, base: PixelSize, scale: Double,
                 renderer: PDFChildRenderer) throws(ProxyError) -> Image {
        // A page alone is planned on `base`, which the vector guard may have made smaller than the page.
        let planned = pages.sizes.count == 1 ? [base] : pages.sizes
        let fitted = vectorScale(base: base, scale: scale)
        var drawn: [PixelBuffer] = []
        for (offset, size) in planned.enumerated() {
            drawn.append(try renderer.render(data, page: pages.first + offset, size: Self.scaled(size, by: fitted)))
        }
        return Image(frames: [ImageFrame(pixels: drawn.count == 1 ? drawn[0] : Self.stacked(drawn))], format: .pdf,
                     hasAlpha: true, isThumbnail: true, isVector: true)
    }
}
