import Foundation
import WebImage

/// Vector sources (SVG, PDF): answered as sanitized SVG when the URL asks for SVG or no format, else rendered
/// at the size the result needs, as imgproxy does with libvips' scale-on-load — never rasterised at their own
/// size and then resized.
extension ImageProcessor {
    /// The formats a coder renders at any size.
    static let vectorFormats: Set<ImageFormat> = [.svg, .pdf]

    /// A PDF source while ``VectorHandling/pdf`` is nil, whether or not the coders read PDF headers.
    static let pdfSourcesOff = ProxyError.unprocessable(
        "PDF sources are off on this server (the operator turns them on with --pdf-sources)")

    /// imgproxy's SVG settings.
    struct VectorHandling: Sendable {
        /// `IMGPROXY_SANITIZE_SVG`. Default true.
        var sanitizesSVG = true
        /// Where PDF pages are drawn (``ImageProxyConfiguration/Processing/rendersPDF``). Default nil: PDF
        /// sources are refused.
        var pdf: PDFChildRenderer?
        /// `IMGPROXY_ALWAYS_RASTERIZE_SVG`. Default false.
        var alwaysRasterizesSVG = false
        /// The most bytes an SVGZ source inflates to (``ImageProxyConfiguration/Limits/maxSourceBytes``).
        /// Default ``SVGZ/defaultMaxBytes``.
        var maxSVGZBytes = SVGZ.defaultMaxBytes
    }

    /// An SVGZ source (gzip-compressed SVG) as the document it holds, so every answer sees the document: kept as
    /// SVG (sanitized), rendered, or returned by `raw` — never gzip bytes labelled SVG. Inflated within the
    /// source limits (the operator's and the URL's `max_src_file_size`) and ``SVGZ/maxRatio`` times its size;
    /// past them, or broken, 422. Any other source is returned as it is.
    func inflatingSVGZ(_ source: SourceBytes, options: ProcessingOptions) throws(ProxyError) -> SourceBytes {
        guard SVGZ.isSVGZ(source.data) else { return source }
        let limit = min(vectors.maxSVGZBytes, options.security.maxSourceBytes ?? .max)
        do {
            return SourceBytes(data: try SVGZ.inflate(source.data, maxBytes: limit), header: source.header)
        } catch {
            throw .unprocessable("the SVGZ source cannot be inflated: \(error)")
        }
    }

    /// The answer to an SVG source when it stays SVG (imgproxy's `shouldSkipStandardProcessing`): the URL names
    /// SVG, or names no format (negotiation does not count) and SVGs are not always rasterised, or are but the URL
    /// skips processing SVG. Nil: it is rendered like any other source.
    func svgAnswer(_ source: SourceBytes, choice: FormatChoice,
                   options: ProcessingOptions) throws(ProxyError) -> (data: Data, format: ImageFormat)? {
        let staysSVG = choice.requested == .svg
            || (choice.requested == nil && choice.mayAnswerSource(skipsAllowed: encoding.bestFormat.allowsSkips)
                && (!vectors.alwaysRasterizesSVG || options.skipProcessing.contains(.svg)))
        guard staysSVG else { return nil }
        try checkSourceBytes(source, options: options)
        guard vectors.sanitizesSVG else { return (source.data, .svg) }
        do {
            // Entities may expand the text; four times the source (at least 1 MiB) is far past any real drawing.
            let sanitized = try SVGSanitizer.sanitize(source.data, maxBytes: max(1 << 20, source.data.count * 4))
            return (sanitized, .svg)
        } catch {
            throw .unprocessable("broken or unsupported SVG image: \(error.description)")
        }
    }

    /// The size a vector source is planned at: its own, or, when that is over the source resolution limit,
    /// scaled down to fit it (imgproxy's `vectorGuardScale`: a vector is never refused for its declared size).
    func vectorBase(_ size: PixelSize, options: ProcessingOptions) -> PixelSize {
        let limit = Double(min(maxSourcePixels, options.security.maxSourcePixels ?? .max))
        let pixels = Double(size.width) * Double(size.height)
        guard pixels > limit else { return size }
        let shrink = (pixels / limit).squareRoot()
        return PixelSize(width: max(1, Int(Double(size.width) / shrink)), height: max(1, Int(Double(size.height) / shrink)))
    }

    /// The raster a vector source is rendered at for a plan of `scale` on `base`.
    func vectorRaster(base: PixelSize, scale: Double) -> PixelSize {
        Self.scaled(base, by: vectorScale(base: base, scale: scale))
    }

    /// The scale a vector planned on `base` is rendered at for a plan of `scale`: any (vectors enlarge freely),
    /// but never over the source resolution limit — a result crop of a corner of a huge enlargement is rendered
    /// at the limit and resized the rest of the way.
    func vectorScale(base: PixelSize, scale: Double) -> Double {
        let pixels = Double(base.width) * Double(base.height)
        return min(scale, (Double(maxSourcePixels) / pixels).squareRoot())
    }

    /// `size` times `scale`, each side rounded and at least 1.
    static func scaled(_ size: PixelSize, by scale: Double) -> PixelSize {
        PixelSize(width: max(1, Int((Double(size.width) * scale).rounded())),
                  height: max(1, Int((Double(size.height) * scale).rounded())))
    }
}
