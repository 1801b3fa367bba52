import Foundation
import WebImage

/// imgproxy Pro's `page` and `pages`: which pages (frames) of a multi-page or animated source make a still
/// result, stacked top to bottom and left-aligned.
extension ImageProcessor {
    /// The pages a still result is made of; nil for the first page alone (the usual decode). PDF sources draw
    /// their first page only (a page of another size would need its own plan): other pages are refused.
    func pageRange(header: ImageHeader, options: ProcessingOptions) throws(ProxyError) -> Range<Int>? {
        guard options.page > 0 || options.pages > 1 else { return nil }
        guard header.format != .pdf else {
            throw .unprocessable("page and pages take the pages of multi-page TIFF and animated sources; "
                                 + "a PDF source draws its first page only")
        }
        let count = max(1, header.frameCount)
        guard options.page < count else {
            throw .unprocessable("page \(options.page) was asked of a source of \(count) page\(count == 1 ? "" : "s")")
        }
        let range = options.page ..< min(count, options.page + options.pages)
        try checkPages(header, count: range.count, options: options)
        return range
    }

    /// `range`'s pages decoded whole and stacked, each at the left, the canvas as wide as the widest.
    func decodePages(_ data: Data, range: Range<Int>, keepsProfile: Bool,
                     readsMetadata: Bool) throws(ProxyError) -> Image {
        var options = ImageDecodeOptions(scaleFactor: 1, firstFrameOnly: false, maxPixelCount: maxSourcePixels,
                                         readsMetadata: readsMetadata)
        options.colorSpace = keepsProfile ? .preserve : .sRGB
        do {
            guard let image = try frames(range, of: data, options: options) else {
                throw ProxyError.unprocessable("the source has one page")
            }
            let pages = image.frames.map { $0.pixels.converted(to: .rgba8) }
            let width = pages.map(\.width).max() ?? 1
            var stacked = PixelBuffer(width: width, height: pages.reduce(0) { $0 + $1.height })
            var top = 0
            stacked.withUnsafeMutableBytes { canvas in
                for page in pages {
                    page.withUnsafeBytes { source in
                        for row in 0..<page.height {
                            let from = row * page.bytesPerRow, to = (top + row) * width * 4
                            canvas[to ..< to + page.bytesPerRow].copyBytes(from: source[from ..< from + page.bytesPerRow])
                        }
                    }
                    top += page.height
                }
            }
            let ragged = pages.contains { $0.width != width }
            return Image(frames: [ImageFrame(pixels: stacked)], orientation: image.orientation,
                         format: image.format, hasAlpha: image.hasAlpha || ragged)
        } catch let error as ProxyError {
            throw error
        } catch {
            throw .unprocessable("the source's pages cannot be decoded: \(error)")
        }
    }
}
