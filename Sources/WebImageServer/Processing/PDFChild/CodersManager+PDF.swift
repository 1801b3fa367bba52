import WebImage

extension CodersManager {
    /// These coders, with ``PDFCoder`` after them when none of them reads PDF: with PDF sources on, the service
    /// reads a PDF's header in its own process (its pages are drawn in children), and ``BuiltInCoders`` leaves
    /// PDF out.
    func readingPDFHeaders() -> CodersManager {
        coders.contains { $0 is PDFCoder } ? self : CodersManager(coders: coders + [PDFCoder()])
    }
}
