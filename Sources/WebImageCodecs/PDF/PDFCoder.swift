import Foundation
import WebImageCore

/// Renders PDF pages with poppler (its GLib interface, onto cairo): SDWebImage's vector coders for PDF.
///
/// The document is opened from memory only; nothing it references is fetched. One page is rendered, the first
/// unless ``PDFPage`` says otherwise, on a transparent background, into straight RGBA8; the image is a vector
/// one (``Image/isVector``), so the manager leaves transformers off it unless asked.
///
/// Its size: the page's crop box as displayed (`/Rotate` applied) at 72 DPI, one pixel per point, times the
/// resolved scale; or the thumbnail size asked for (aspect fit unless `preserveAspectRatio` is false, up as well
/// as down: a vector is rasterised at the size wanted instead of resampled); then the scale-down limit. The pixel
/// count is checked against `maxPixelCount` before the surface is allocated. Encrypted documents (a password is
/// never tried), damaged ones, pages out of range and oversized pages fail with typed errors. poppler has no
/// cancellation hook in its GLib API: the work token is checked before and after the render, and a page that
/// draws for minutes (pdf.js's `function_based_shading.pdf`) holds its thread and memory until it is done. So
/// the coder is not in ``BuiltInCoders``: as with SDWebImage's PDF plugin, add it for documents you trust.
///
/// ```swift
/// CodersManager.shared.addCoder(PDFCoder())
/// ```
///
/// ```swift
/// var options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 512, height: 512))
/// options.coderOptions[PDFPage.self] = 1
/// let second = try PDFCoder().decode(data, options: options)
/// ```
public final class PDFCoder: ImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the bytes start with `%PDF`.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .pdf
    }

    /// Renders the chosen page; throws ``WebImageError/badImageData(_:)`` for empty, damaged, encrypted or
    /// oversized documents and pages out of range.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            var store = RasterStore.fresh
            return try PDFDecoding.decode(data, store: &store, options: options)
        }
    }

    /// Renders like ``decode(_:options:)`` straight into `buffer`'s storage when it can (see
    /// ``ImageDecoding/decode(_:reusing:options:)``).
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            try RasterStore.reusing(&buffer) { store in try PDFDecoding.decode(data, store: &store, options: options) }
        }
    }

    /// The first page's size at 72 DPI (the raster a plain decode gives at scale 1) and the page count
    /// (``ImageHeader/pageCount``), read without rendering. `hasAlpha` is true: pages are rendered on a
    /// transparent background.
    public func header(_ data: Data) throws -> ImageHeader {
        try PDFDecoding.headers(data, pages: 0..<1)[0]
    }

    /// The header of each page in `pages` (0-based), as ``header(_:)`` gives the first's: pages can differ in
    /// size. The range is cut at the document's last page; one starting past it throws
    /// ``WebImageError/BadImageDataReason/frameOutOfRange(index:count:)`` naming the page count.
    ///
    /// ```swift
    /// let second = try PDFCoder().headers(data, pages: 1..<2)[0].pixelSize
    /// ```
    public func headers(_ data: Data, pages: Range<Int>) throws -> [ImageHeader] {
        try PDFDecoding.headers(data, pages: pages)
    }

    /// False: PDF is read only.
    public func canEncode(to format: ImageFormat) -> Bool {
        false
    }

    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        throw WebImageError.encodingFailed(format: format, reason: "PDFCoder only decodes")
    }
}
