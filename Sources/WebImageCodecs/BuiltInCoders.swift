import WebImageCore

/// The coders `import WebImage` registers in `CodersManager.shared`, lowest priority first.
///
/// ``PDFCoder`` is not among them, as SDWebImage's PDF coder is a plugin one adds: poppler can neither stop a
/// page's drawing nor bound its memory, so a PDF from the web must not be drawn just because it arrived. Add it
/// for documents you trust (`CodersManager.shared.addCoder(PDFCoder())`); `webimage serve` draws pages in a
/// child process instead.
public enum BuiltInCoders {
    public static func makeAll() -> [any ImageCoding] {
        [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder(), HEIFCoder(), AVIFCoder(), JXLCoder(), TIFFCoder(), BMPCoder(),
         ICOCoder(), SVGCoder()]
    }
}
