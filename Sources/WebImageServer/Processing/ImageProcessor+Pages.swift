import Foundation
import WebImage

/// imgproxy Pro's `page` and `pages`: which pages (frames) of a multi-page or animated source make a still
/// result, stacked top to bottom and left-aligned (a PDF's in `+PDFPages`).
extension ImageProcessor {
    /// The pages a still result is made of; nil for the first page alone (the usual decode). A page past the
    /// last is refused with the page count.
    func pageRange(header: ImageHeader, options: ProcessingOptions) throws(ProxyError) -> Range<Int>? {
        guard options.page > 0 || options.pages > 1 else { return nil }
        // An animation's frames, or a document's pages (a PDF reports a frame and its pages).
        let count = max(1, header.frameCount, header.pageCount)
        guard options.page < count else {
            throw .unprocessable("page \(options.page) was asked of a source of \(count) page\(count == 1 ? "" : "s")")
        }
        return options.page ..< min(count, options.page + options.pages)
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
            let ragged = pages.contains { $0.width != pages[0].width }
            return Image(frames: [ImageFrame(pixels: Self.stacked(pages))], orientation: image.orientation,
                         format: image.format, hasAlpha: image.hasAlpha || ragged)
        } catch let error as ProxyError {
            throw error
        } catch {
            throw .unprocessable("the source's pages cannot be decoded: \(error)")
        }
    }

    /// The size `pages` stack to: the widest page's width, the heights added.
    static func stackedSize(_ pages: [PixelSize]) -> PixelSize {
        PixelSize(width: pages.map(\.width).max() ?? 1, height: pages.reduce(0) { $0 + $1.height })
    }

    /// `pages` (straight RGBA8) top to bottom, each at the left; what a narrower page leaves is transparent.
    static func stacked(_ pages: [PixelBuffer]) -> PixelBuffer {
        let size = stackedSize(pages.map(\.size))
        var stacked = PixelBuffer(width: size.width, height: size.height)
        var top = 0
        stacked.withUnsafeMutableBytes { canvas in
            for page in pages {
                page.withUnsafeBytes { source in
                    for row in 0..<page.height {
                        let from = row * page.bytesPerRow, to = (top + row) * size.width * 4
                        canvas[to ..< to + page.bytesPerRow].copyBytes(from: source[from ..< from + page.bytesPerRow])
                    }
                }
                top += page.height
            }
        }
        return stacked
    }
}
