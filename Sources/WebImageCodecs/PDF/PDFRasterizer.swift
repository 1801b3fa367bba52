// cairo's declarations belong to whichever of CRSVG and CPoppler clang builds first (both headers include
// cairo.h), so code that calls cairo imports both.
import CPoppler
import CRSVG
import Foundation
import WebImageCore

/// Where a PDF page is rasterised: its size in pixels from the options, and the render onto a cleared cairo
/// surface that is the result's own storage.
enum PDFRasterizer {
    /// cairo's image surfaces hold at most 32767 pixels a side.
    static let maxSide = 32767

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
        guard size.width <= maxSide, size.height <= maxSide else {
            throw WebImageError.badImageData(.corrupt(
                "a \(size.width)x\(size.height) PDF raster is over cairo's \(maxSide)-pixel side"))
        }
    }

    /// Renders `page` onto `raster` on a transparent background, into straight RGBA8.
    static func render(_ page: OpaquePointer, on raster: Raster, store: inout RasterStore) throws -> PixelBuffer {
        let size = raster.size
        return try store.fill(width: size.width, height: size.height) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            let data = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let surface = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, Int32(size.width),
                                                              Int32(size.height), Int32(size.width * 4))
            defer { cairo_surface_destroy(surface) }
            let context = cairo_create(surface)
            defer { cairo_destroy(context) }
            guard cairo_status(context) == CAIRO_STATUS_SUCCESS else {
                throw WebImageError.badImageData(.corrupt("cairo cannot draw on a \(size.width)x\(size.height) surface"))
            }
            cairo_scale(context, raster.scaleX, raster.scaleY)
            poppler_page_render(page, context)
            cairo_surface_flush(surface)
            CairoPixels.makeStraightRGBA(UnsafeMutableBufferPointer(start: data, count: raw.count))
        }
    }
}

/// cairo's `ARGB32` (premultiplied, one native-endian 32-bit word a pixel: B, G, R, A in memory on the
/// little-endian machines Swift on Linux runs on) turned in place into the model's straight RGBA8.
enum CairoPixels {
    static func makeStraightRGBA(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        var i = 0
        while i + 3 < pixels.count {
            let alpha = UInt32(pixels[i + 3])
            let blue = pixels[i], red = pixels[i + 2]
            if alpha == 255 {
                pixels[i] = red
                pixels[i + 2] = blue
            } else if alpha != 0 {
                pixels[i] = unpremultiply(red, alpha)
                pixels[i + 1] = unpremultiply(pixels[i + 1], alpha)
                pixels[i + 2] = unpremultiply(blue, alpha)
            }
            i += 4
        }
    }

    @inline(__always)
    private static func unpremultiply(_ value: UInt8, _ alpha: UInt32) -> UInt8 {
        UInt8(min(255, (UInt32(value) * 255 + alpha / 2) / alpha))
    }
}
