import WebImageCore

/// The coders `import WebImage` registers in `CodersManager.shared`, lowest priority first.
public enum BuiltInCoders {
    public static func makeAll() -> [any ImageCoding] {
        [JPEGCoder(), PNGCoder(), GIFCoder(), WebPCoder(), HEIFCoder(), AVIFCoder(), JXLCoder(), TIFFCoder(), BMPCoder(),
         ICOCoder(), SVGCoder(), PDFCoder()]
    }
}
