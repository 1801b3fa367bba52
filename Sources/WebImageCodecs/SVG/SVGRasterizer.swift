// cairo's declarations belong to whichever of CRSVG and CPoppler clang builds first (both headers include
// cairo.h), so code that calls cairo imports both.
import CPoppler
import CRSVG
import Foundation
import WebImageCore

/// Draws a document with librsvg onto a cairo surface over the raster's own storage, then turns cairo's
/// premultiplied native-endian ARGB into the model's straight RGBA in place.
enum SVGRasterizer {
    /// cairo's largest image surface side.
    static let maxSide = 32767

    /// The document's `intrinsic` viewport scaled to `size` (stretched when the ratios differ), on
    /// transparent black.
    static func render(_ document: SVGDocument, intrinsic: (width: Double, height: Double),
                       to size: PixelSize) throws -> PixelBuffer {
        guard size.width <= maxSide, size.height <= maxSide else {
            throw WebImageError.badImageData(.corrupt(
                "SVG raster \(size.width)x\(size.height) is over cairo's \(maxSide) pixels a side"))
        }
        var failure: String?
        let pixels = PixelBuffer(width: size.width, height: size.height) { raw in
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            failure = draw(document, intrinsic: intrinsic, into: raw, size: size)
            if failure == nil { straighten(raw) }
        }
        if let failure { throw WebImageError.badImageData(.corrupt("librsvg: \(failure)")) }
        try WorkCancellation.checkCurrent()
        return pixels
    }

    /// Renders into `raw` (a zeroed ARGB32 raster, 4 bytes a pixel, no padding); the failure's text, or nil.
    private static func draw(_ document: SVGDocument, intrinsic: (width: Double, height: Double),
                             into raw: UnsafeMutableRawBufferPointer, size: PixelSize) -> String? {
        let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let surface = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_ARGB32, Int32(size.width),
                                                          Int32(size.height), Int32(size.width * 4))
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            return "cairo: " + String(cString: cairo_status_to_string(cairo_surface_status(surface)))
        }
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        cairo_scale(context, Double(size.width) / intrinsic.width, Double(size.height) / intrinsic.height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: intrinsic.width, height: intrinsic.height)
        var error: UnsafeMutablePointer<GError>?
        let drawn = rsvg_handle_render_document(document.handle, context, &viewport, &error) != 0
        cairo_surface_flush(surface)
        guard drawn else { return SVGDocument.message(consuming: error) ?? "rendering failed" }
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else { return "cairo: " + String(cString: cairo_status_to_string(status)) }
        return nil
    }

    /// Premultiplied `0xAARRGGBB` words to straight R, G, B, A bytes (``AlphaUnpremultiplier``'s rounding,
    /// fused with the channel swap so the raster is walked once).
    private static func straighten(_ raw: UnsafeMutableRawBufferPointer) {
        for offset in stride(from: 0, to: raw.count, by: 4) {
            let word = raw.load(fromByteOffset: offset, as: UInt32.self)
            let alpha = word >> 24
            var red = (word >> 16) & 0xFF, green = (word >> 8) & 0xFF, blue = word & 0xFF
            if alpha != 0 && alpha != 255 {
                red = min(255, (red * 255 + alpha / 2) / alpha)
                green = min(255, (green * 255 + alpha / 2) / alpha)
                blue = min(255, (blue * 255 + alpha / 2) / alpha)
            }
            raw.storeBytes(of: (red | green << 8 | blue << 16 | alpha << 24).littleEndian, toByteOffset: offset,
                           as: UInt32.self)
        }
    }
}
