// cairo's declarations belong to whichever of CRSVG and CPoppler clang builds first (both headers include
// cairo.h), so code that calls cairo imports both.
import CPoppler
import CRSVG
import Foundation
import WebImageCore

/// Draws a document with librsvg onto a ``CairoRaster``: a cairo surface over the raster's own storage, made
/// the model's straight RGBA in place.
enum SVGRasterizer {
    /// The document's `intrinsic` viewport scaled to `size` (stretched when the ratios differ), on
    /// transparent black.
    static func render(_ document: SVGDocument, intrinsic: (width: Double, height: Double),
                       to size: PixelSize) throws -> PixelBuffer {
        guard size.width <= CairoRaster.maxSide, size.height <= CairoRaster.maxSide else {
            throw WebImageError.badImageData(.corrupt(
                "SVG raster \(size.width)x\(size.height) is over cairo's \(CairoRaster.maxSide) pixels a side"))
        }
        var failure: String?
        let pixels = PixelBuffer(width: size.width, height: size.height) { raw in
            failure = CairoRaster.draw(into: raw, size: size) { draw(document, intrinsic: intrinsic, size: size, on: $0) }
        }
        if let failure { throw WebImageError.badImageData(.corrupt("librsvg: \(failure)")) }
        try WorkCancellation.checkCurrent()
        return pixels
    }

    /// Renders onto `context` (a cleared surface of `size`); the failure's text, or nil.
    private static func draw(_ document: SVGDocument, intrinsic: (width: Double, height: Double), size: PixelSize,
                             on context: OpaquePointer) -> String? {
        cairo_scale(context, Double(size.width) / intrinsic.width, Double(size.height) / intrinsic.height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: intrinsic.width, height: intrinsic.height)
        var error: UnsafeMutablePointer<GError>?
        guard rsvg_handle_render_document(document.handle, context, &viewport, &error) != 0 else {
            return SVGDocument.message(consuming: error) ?? "rendering failed"
        }
        return CairoRaster.statusFailure(context)
    }
}
