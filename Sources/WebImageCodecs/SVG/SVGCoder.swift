import Foundation
import WebImageCore

/// SVG through librsvg (the library libvips and so imgproxy use), rasterised with cairo.
///
/// Decoding rasterises the document on a transparent background: at ``ImageDecodeOptions/thumbnailPixelSize``
/// when one is asked for (fitted inside it, up or down, keeping the aspect ratio unless
/// ``ImageDecodeOptions/preserveAspectRatio`` is false: a vector has no "full size" to stop at), else at the
/// intrinsic size × ``ImageDecodeOptions/resolvedScale``; then shrunk to meet
/// ``ImageDecodeOptions/scaleDownLimitBytes``. The raster's pixel count is checked against
/// ``ImageDecodeOptions/maxPixelCount`` before the surface is allocated. The image is marked
/// ``Image/isVector`` and always has alpha.
///
/// An SVGZ (gzip-compressed SVG, ``SVGZ``) is inflated first, within ``SVGZ/defaultMaxBytes`` and
/// ``SVGZ/maxRatio`` times its size, as librsvg and libvips read it.
///
/// The intrinsic size follows libvips' `svgload`: the `width`/`height` in pixels at 72 DPI (so `1in` is 72 px),
/// else a side and the `viewBox`'s ratio, else the `viewBox`'s size, else the drawing's extent (see
/// ``SVGDocument/intrinsicSize()``).
///
/// Safety: the document is read from memory with no base file, so librsvg resolves no relative or
/// absolute reference (`<image href="/etc/passwd">`, `file://`, `http://`, XInclude, CSS `@import` draw
/// nothing and fetch nothing); only `data:` URLs, which are inline bytes, are loaded. librsvg's own limits stay
/// on (never `RSVG_HANDLE_FLAG_UNLIMITED`): libxml2's entity-amplification and depth checks, its caps on
/// elements and on references followed while rendering. A document whose text librsvg would lay out too tall
/// for pango (it aborts the process there) is refused, by ``decode(_:options:)`` and ``header(_:)`` alike
/// (``SVGTextGuard``: a run's font size × lines within 262,144 user units).
///
/// ```swift
/// let icon = try SVGCoder().decode(svg, options: .init(thumbnailPixelSize: PixelSize(width: 64, height: 64)))
/// ```
public final class SVGCoder: ImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the bytes sniff as SVG (``ImageFormat/sniff(_:)``: an `<svg` root after the XML prolog), or are
    /// an SVGZ: gzip whose inflated start does (``SVGZ/isSVGZ(_:)``).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .svg || SVGZ.isSVGZ(data)
    }

    /// Rasterises the document at the size the options ask for.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
            let data = try Self.document(data)
            let document = try SVGDocument(data)
            let intrinsic = try document.intrinsicSize()
            let plan = try SVGRenderSize(intrinsic: intrinsic, options: options)
            try SVGEmbeddedImages.check(data, pixelLimit: options.maxPixelCount)
            try WorkCancellation.checkCurrent()
            let pixels = try SVGRasterizer.render(document, intrinsic: intrinsic, to: plan.pixelSize)
            let image = Image(frames: [ImageFrame(pixels: pixels)], format: .svg, hasAlpha: true,
                              isThumbnail: plan.isThumbnail, isVector: true)
            return options.finish(image, targetSize: nil)
        }
    }

    /// The intrinsic size (rounded to whole pixels, at scale 1) from the parsed document; nothing is drawn.
    public func header(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        let intrinsic = try SVGDocument(try Self.document(data)).intrinsicSize()
        return ImageHeader(format: .svg, pixelSize: try SVGRenderSize.roundedSize(intrinsic.width, intrinsic.height),
                           hasAlpha: true)
    }

    /// The SVG text: an SVGZ inflated (within ``SVGZ/defaultMaxBytes`` and ``SVGZ/maxRatio``), else `data`.
    private static func document(_ data: Data) throws -> Data {
        SVGZ.isGzip(data) ? try SVGZ.inflate(data) : data
    }

    public func canEncode(to format: ImageFormat) -> Bool { false }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError.encodingFailed(format: format, reason: "SVGCoder only reads SVG")
    }
}
