// cairo's declarations belong to whichever of CRSVG and CPoppler clang builds first (both headers include
// cairo.h), so code that calls cairo imports both.
import CPoppler
import CRSVG
import Foundation
import WebImageCore

/// Where a PDF page is rasterised: its size in pixels from the options, and the render onto a cleared
/// ``CairoRaster`` (a cairo surface that is the result's own storage).
enum PDFRasterizer {
    /// The raster a page of `points` is drawn on: its size and the scale from points to its pixels.
    struct Raster {
        var size: PixelSize
        var scaleX: Double
        var scaleY: Double
    }

    /// The raster of a page of `points`: SDWebImage's vector rule. A thumbnail size is filled (aspect fit unless
    /// ``ImageDecodeOptions/preserveAspectRatio`` is false, scaling up too: a vector loses nothing), else the page
    /// at 72 DPI (one pixel per point, libvips' `pdfload` default) × the resolved scale, its sides rounded to
    /// the nearest pixel as libvips does (`rint`; a fraction of a point at the right or bottom edge is cut, where
    /// `pdftocairo` rounds up); then shrunk to the scale-down limit. Sides are at least 1.
    static func raster(points: (width: Double, height: Double), options: ImageDecodeOptions) -> Raster {
        let fitting = { (size: PixelSize) in
            Raster(size: size, scaleX: Double(size.width) / points.width, scaleY: Double(size.height) / points.height)
        }
        var raster: Raster
        if let requested = options.thumbnailPixelSize, requested.width > 0, requested.height > 0 {
            let fitted = ImageGeometry.scaledSize(
                imageSize: CGSize(width: points.width, height: points.height),
                scaleSize: CGSize(width: requested.width, height: requested.height),
                preserveAspectRatio: options.preserveAspectRatio, shouldScaleUp: true)
            raster = fitting(PixelSize(width: side(fitted.width), height: side(fitted.height)))
        } else {
            let scale = options.resolvedScale
            raster = Raster(size: PixelSize(width: side(points.width * scale), height: side(points.height * scale)),
                            scaleX: scale, scaleY: scale)
        }
        let size = raster.size
        if let limit = options.scaleDownLimitBytes, limit > 0, size.pixelCount <= Int.max / 4, size.pixelCount * 4 > limit {
            raster = fitting(ImageGeometry.scaledDownSize(source: size, limitBytes: limit, bytesPerPixel: 4, frameCount: 1))
        }
        return raster
    }

    /// A side in whole pixels (`rint`: halves to even); huge values are kept huge (and refused by the pixel check) without overflowing.
    static func side(_ value: Double) -> Int {
        guard value.isFinite else { return Int(Int32.max) }
        return Int(min(max(value.rounded(.toNearestOrEven), 1), Double(Int32.max)))
    }

    /// Throws before anything is allocated when `size` is over the options' pixel limit or cairo's side limit.
    static func check(_ size: PixelSize, options: ImageDecodeOptions) throws {
        try options.checkPixelCount(width: size.width, height: size.height)
        guard size.width <= CairoRaster.maxSide, size.height <= CairoRaster.maxSide else {
            throw WebImageError.badImageData(.corrupt(
                "a \(size.width)x\(size.height) PDF raster is over cairo's \(CairoRaster.maxSide)-pixel side"))
        }
    }

    /// Renders `page` onto `raster` (a ``CairoRaster``) on a transparent background, into straight RGBA8.
    static func render(_ page: OpaquePointer, on raster: Raster, store: inout RasterStore) throws -> PixelBuffer {
        let size = raster.size
        return try store.fill(width: size.width, height: size.height) { raw in
            let failure = CairoRaster.draw(into: raw, size: size) { context in
                cairo_scale(context, raster.scaleX, raster.scaleY)
                poppler_page_render(page, context)
                return nil
            }
            if let failure {
                throw WebImageError.badImageData(.corrupt("cannot draw on a \(size.width)x\(size.height) surface: \(failure)"))
            }
        }
    }
}
