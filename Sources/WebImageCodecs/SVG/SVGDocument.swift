import CRSVG
import Foundation
import WebImageCore

/// A parsed SVG document: a librsvg handle read from memory with no base file (so no reference outside the
/// bytes resolves) and librsvg's limits on, at libvips' 72 DPI. A document whose text would abort librsvg when
/// laid out (``SVGTextGuard``) is refused here, before anything can draw or measure it.
final class SVGDocument {
    /// libvips' default (`svgload`'s `dpi`), so physical units give imgproxy's sizes.
    static let dpi = 72.0

    let handle: UnsafeMutablePointer<RsvgHandle>

    init(_ data: Data) throws {
        let handle = try Self.load(data)
        do {
            // After librsvg: its XML reading refuses what libxml2 would only recover from, so the check reads
            // the same elements.
            try SVGTextGuard.check(data)
        } catch {
            g_object_unref(UnsafeMutableRawPointer(handle))
            throw error
        }
        self.handle = handle
        rsvg_handle_set_dpi(handle, Self.dpi)
    }

    private static func load(_ data: Data) throws -> UnsafeMutablePointer<RsvgHandle> {
        try data.withUnsafeBytes { bytes in
            var error: UnsafeMutablePointer<GError>?
            // The stream borrows the bytes: it lives only inside this closure. No base file: nothing resolves.
            let stream = g_memory_input_stream_new_from_data(bytes.baseAddress, gssize(bytes.count), nil)
            defer { g_object_unref(stream) }
            guard let handle = rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, &error) else {
                let message = SVGDocument.message(consuming: error) ?? "cannot read the document"
                throw WebImageError.badImageData(.corrupt("librsvg: \(message)"))
            }
            return handle
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// The size in pixels at 1×, as libvips' `svgload` works it out: `width` and `height` in pixels (physical
    /// units at ``dpi``); when either is a percentage (SVG 2's default `100%`), the other with the `viewBox`'s
    /// ratio, or the `viewBox`'s size; with neither, the drawing's extent from the origin.
    func intrinsicSize() throws -> (width: Double, height: Double) {
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0 {
            return (width, height)
        }
        var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
        var lengthWidth = RsvgLength(), lengthHeight = RsvgLength(), viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, &lengthWidth, &hasHeight, &lengthHeight,
                                             &hasViewBox, &viewBox)
        width = Self.pixels(lengthWidth)
        height = Self.pixels(lengthHeight)
        let viewBoxUsable = hasViewBox != 0 && viewBox.width > 0 && viewBox.height > 0
        if width > 0, height > 0 {
        } else if width > 0, viewBoxUsable {
            height = width * viewBox.height / viewBox.width
        } else if height > 0, viewBoxUsable {
            width = height * viewBox.width / viewBox.height
        } else if viewBoxUsable {
            width = viewBox.width
            height = viewBox.height
        } else {
            var ink = RsvgRectangle()
            var error: UnsafeMutablePointer<GError>?
            guard rsvg_handle_get_geometry_for_element(handle, nil, &ink, nil, &error) != 0 else {
                let message = Self.message(consuming: error) ?? "no size"
                throw WebImageError.badImageData(.corrupt("librsvg: \(message)"))
            }
            width = ink.x + ink.width
            height = ink.y + ink.height
        }
        return (width, height)
    }

    /// A CSS length in pixels at ``dpi`` and librsvg's 12 px font size; 0 for a percentage, which has no
    /// size without a viewport (libvips' `svg_css_length_to_pixels`).
    private static func pixels(_ length: RsvgLength) -> Double {
        let value = length.length
        switch length.unit {
        case RSVG_UNIT_PX: return value
        case RSVG_UNIT_EM: return value * 12
        case RSVG_UNIT_EX: return value * 6
        case RSVG_UNIT_IN: return value * dpi
        case RSVG_UNIT_CM: return value * dpi / 2.54
        case RSVG_UNIT_MM: return value * dpi / 25.4
        case RSVG_UNIT_PT: return value * dpi / 72
        case RSVG_UNIT_PC: return value * dpi / 6
        default: return 0
        }
    }

    /// The text of a GError, which it frees.
    static func message(consuming error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) }
    }
}
