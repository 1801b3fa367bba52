import CPoppler
import Foundation
import WebImageCore

/// A PDF opened by poppler straight from the caller's bytes: no copy, no file name, so nothing the document
/// references is ever opened (poppler-glib fetches no external streams, URLs or launch targets when rendering).
struct PDFDocument: ~Copyable {
    let handle: OpaquePointer
    let pageCount: Int

    /// Runs `body` with `data` opened; the document lives only while the bytes are pinned.
    static func withDocument<R>(_ data: Data, _ body: (borrowing PDFDocument) throws -> R) throws -> R {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { raw in
            let bytes = g_bytes_new_static(raw.baseAddress, gsize(raw.count))
            defer { g_bytes_unref(bytes) }
            var error: UnsafeMutablePointer<GError>?
            guard let handle = poppler_document_new_from_bytes(bytes, nil, &error) else {
                throw PDFDocument.failure(error)
            }
            let document = PDFDocument(handle: handle, pageCount: Int(poppler_document_get_n_pages(handle)))
            return try body(document)
        }
    }

    private init(handle: OpaquePointer, pageCount: Int) {
        self.handle = handle
        self.pageCount = pageCount
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    /// The page `index` (0-based) and its size in points, rotated as it is displayed (poppler applies `/Rotate`
    /// and the crop box). The caller unreferences the page.
    func page(_ index: Int) throws -> (handle: OpaquePointer, points: (width: Double, height: Double)) {
        guard pageCount > 0 else { throw WebImageError.badImageData(.corrupt("the PDF has no pages")) }
        guard index >= 0, index < pageCount else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: pageCount))
        }
        guard let page = poppler_document_get_page(handle, Int32(index)) else {
            throw WebImageError.badImageData(.corrupt("PDF page \(index) cannot be read"))
        }
        var width = 0.0, height = 0.0
        poppler_page_get_size(page, &width, &height)
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            g_object_unref(UnsafeMutableRawPointer(page))
            throw WebImageError.badImageData(.corrupt("PDF page \(index) has an empty size \(width)x\(height) pt"))
        }
        return (page, (width, height))
    }

    /// poppler's GError as a typed error: an encrypted document (a password is never tried) or a damaged one.
    private static func failure(_ error: UnsafeMutablePointer<GError>?) -> WebImageError {
        guard let error else { return .badImageData(.corrupt("poppler cannot open the PDF")) }
        defer { g_error_free(error) }
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        if error.pointee.domain == poppler_error_quark(), error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
            return .badImageData(.corrupt("the PDF is encrypted and needs a password (\(message))"))
        }
        return .badImageData(.corrupt("PDF: \(message)"))
    }
}
