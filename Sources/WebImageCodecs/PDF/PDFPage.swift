import WebImageCore

/// Which page of a PDF to render, counted from 0 (libvips' `pdfload` `page`). Default 0, the first page; a page
/// past the document's end fails with ``WebImageError/BadImageDataReason/frameOutOfRange(index:count:)`` naming
/// the page count.
///
/// ```swift
/// var options = ImageDecodeOptions()
/// options.coderOptions[PDFPage.self] = 2   // the third page
/// ```
public enum PDFPage: ImageCoderOptionKey {
    public static let defaultValue = 0
}
