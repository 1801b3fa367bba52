// cairo's declarations belong to whichever of CRSVG and CPoppler clang builds first (both headers include
// cairo.h), so code that calls cairo imports both.
import CPoppler
import CRSVG
import WebImageCore

/// A cairo image surface over a raster's own storage, for the SVG and PDF rasterizers and the service's text
/// watermarks: what they draw lands in the result's pixels, made the model's straight RGBA in place afterwards
/// (no copy).
package enum CairoRaster {
    /// cairo's image surfaces hold at most 32767 pixels a side.
    static let maxSide = 32767

    /// Zeroes `raw` (`size`'s pixels, 4 bytes each, no padding), wraps it in an `ARGB32` surface and hands
    /// `draw` a context on it; once `draw` returns nil, the pixels are made straight RGBA
    /// (``AlphaUnpremultiplier/straightRGBA(fromCairoARGB32:)``). Returns the failure's text — cairo's status
    /// when it cannot draw on the surface, or `draw`'s own — or nil.
    package static func draw(into raw: UnsafeMutableRawBufferPointer, size: PixelSize,
                             _ draw: (_ context: OpaquePointer) -> String?) -> String? {
        raw.initializeMemory(as: UInt8.self, repeating: 0)
        let surface = cairo_image_surface_create_for_data(raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                          CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height),
                                                          Int32(size.width * 4))
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)!
        defer { cairo_destroy(context) }
        // A surface that could not be made leaves its status on the context too.
        if let failure = statusFailure(context) { return failure }
        let failure = draw(context)
        cairo_surface_flush(surface)
        guard failure == nil else { return failure }
        AlphaUnpremultiplier.straightRGBA(fromCairoARGB32: raw)
        return nil
    }

    /// `cairo: ` and the context's error status, or nil when it has none.
    static func statusFailure(_ context: OpaquePointer) -> String? {
        let status = cairo_status(context)
        guard status != CAIRO_STATUS_SUCCESS else { return nil }
        return "cairo: " + String(cString: cairo_status_to_string(status))
    }
}
