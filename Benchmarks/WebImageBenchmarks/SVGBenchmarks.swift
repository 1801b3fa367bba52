import CRSVG
// cairo's declarations: in a target that imports CRSVG and CPoppler, Clang owns cairo.h by one of the two.
import CPoppler
import Foundation
import TestSupport
import WebImage

/// SVG rasterising: `SVGCoder.decode` beside librsvg's own calls in the same process (read from memory,
/// `rsvg_handle_render_document` onto a cairo surface: the limit, without our straight-alpha conversion) and
/// beside `rsvg-convert` (a process per file writing a PNG, wall time), on resvg corpus files drawn at 4× their
/// reference size (800×800 for most).
enum SVGBenchmarks {
    static let files = [
        "shapes/path/M-C-S.svg", "shapes/rect/em-values.svg", "painting/stroke-dasharray/comma-ws-separator.svg",
        "painting/stroke-linejoin/bevel.svg", "paint-servers/linearGradient/default-attributes.svg",
        "paint-servers/radialGradient/fr=0.7.svg", "paint-servers/pattern/display=none-on-child.svg",
        "masking/clipPath/clip-path-on-child.svg", "masking/mask/color-interpolation=linearRGB.svg",
        "structure/style/class-selector.svg", "filters/feGaussianBlur/simple-case.svg",
        "filters/feColorMatrix/type=hueRotate.svg",
    ]

    static func run() throws {
        let rsvgConvert = "/usr/bin/rsvg-convert"
        let hasConvert = FileManager.default.isExecutableFile(atPath: rsvgConvert)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("svg-bench-\(getpid()).png").path
        var oursTotal = 0.0, rawTotal = 0.0, convertTotal = 0.0
        for file in files {
            let data = try TestCorpus.data("resvg/\(file)")
            let header = try SVGCoder().header(data)
            let size = PixelSize(width: header.pixelSize.width * 4, height: header.pixelSize.height * 4)
            let options = ImageDecodeOptions(thumbnailPixelSize: size, preserveAspectRatio: false)
            let comparison = try Measure.interleavedBest(rounds: 15,
                { _ = try SVGCoder().decode(data, options: options) },
                { try rawRender(data, size: size) })
            oursTotal += comparison.ours.cpu
            rawTotal += comparison.theirs.cpu
            var line = String(format: "%@ %dx%d  ours %7.2f ms  raw librsvg %7.2f ms  raw/ours median %.3f× (range %@)",
                              file.padding(toLength: 52, withPad: " ", startingAt: 0), size.width, size.height,
                              comparison.ours.cpu * 1000, comparison.theirs.cpu * 1000, comparison.medianRatio,
                              comparison.ratioRange)
            if hasConvert {
                let arguments = [rsvgConvert, "-w", "\(size.width)", "-h", "\(size.height)", "-o", scratch,
                                 TestCorpus.path("resvg/\(file)")]
                let runs = try (0..<7).map { _ in try ChildRun.run(arguments).seconds }.sorted()
                convertTotal += runs[3]
                line += String(format: "  rsvg-convert %7.2f ms wall (median of 7)", runs[3] * 1000)
            }
            print(line)
        }
        try? FileManager.default.removeItem(atPath: scratch)
        print(String(format: "all files: ours %.2f ms, raw librsvg %.2f ms (raw/ours %.3f×)%@", oursTotal * 1000,
                     rawTotal * 1000, rawTotal / oursTotal,
                     hasConvert ? String(format: ", rsvg-convert %.2f ms wall (%.1f× ours)", convertTotal * 1000,
                                         convertTotal / oursTotal) : ", rsvg-convert not installed"))
    }

    /// librsvg and cairo alone: what the coder does, minus our checks and the straight-alpha conversion.
    static func rawRender(_ data: Data, size: PixelSize) throws {
        var error: UnsafeMutablePointer<GError>?
        guard let handle = data.withUnsafeBytes({ bytes in
            rsvg_handle_new_from_data(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), gsize(bytes.count), &error)
        }) else {
            g_error_free(error)
            throw WebImageError.badImageData(.corrupt("librsvg could not read the file"))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        rsvg_handle_set_dpi(handle, 72)
        var width = 0.0, height = 0.0
        _ = rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height)
        if width <= 0 || height <= 0 {
            var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
            var lengthWidth = RsvgLength(), lengthHeight = RsvgLength(), viewBox = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(handle, &hasWidth, &lengthWidth, &hasHeight, &lengthHeight,
                                                 &hasViewBox, &viewBox)
            width = viewBox.width
            height = viewBox.height
        }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height))
        defer { cairo_surface_destroy(surface) }
        let context = cairo_create(surface)
        defer { cairo_destroy(context) }
        cairo_scale(context, Double(size.width) / width, Double(size.height) / height)
        var viewport = RsvgRectangle(x: 0, y: 0, width: width, height: height)
        guard rsvg_handle_render_document(handle, context, &viewport, &error) != 0 else {
            g_error_free(error)
            throw WebImageError.badImageData(.corrupt("librsvg could not draw the file"))
        }
        cairo_surface_flush(surface)
    }
}
