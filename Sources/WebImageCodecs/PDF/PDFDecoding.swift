import CPoppler
import Foundation
import WebImageCore

/// One decode: the chosen page's size, the pixel checks, the render and the finished ``Image``.
enum PDFDecoding {
    static func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        try PDFDocument.withDocument(data) { document in
            let page = try document.page(options.coderOptions[PDFPage.self])
            defer { g_object_unref(UnsafeMutableRawPointer(page.handle)) }
            let raster = PDFRasterizer.raster(points: page.points, options: options)
            try PDFRasterizer.check(raster.size, options: options)
            try WorkCancellation.checkCurrent()
            let pixels = try PDFRasterizer.render(page.handle, on: raster, store: &store)
            try WorkCancellation.checkCurrent()
            let image = Image(frames: [ImageFrame(pixels: pixels)], format: .pdf, hasAlpha: true,
                              isThumbnail: options.thumbnailPixelSize != nil, isVector: true)
            return options.finish(image, targetSize: nil)
        }
    }

    /// Each page's size in `pages` at 72 DPI with the page count, without rendering; the range is cut at the
    /// last page, but its first page must exist (its error names the count).
    static func headers(_ data: Data, pages: Range<Int>) throws -> [ImageHeader] {
        try PDFDocument.withDocument(data) { document in
            guard !pages.isEmpty else { return [] }
            let last = max(pages.lowerBound + 1, min(pages.upperBound, document.pageCount))
            return try (pages.lowerBound ..< last).map { index in
                let page = try document.page(index)
                defer { g_object_unref(UnsafeMutableRawPointer(page.handle)) }
                let size = PixelSize(width: PDFRasterizer.side(page.points.width),
                                     height: PDFRasterizer.side(page.points.height))
                return ImageHeader(format: .pdf, pixelSize: size, hasAlpha: true, pageCount: document.pageCount)
            }
        }
    }
}
