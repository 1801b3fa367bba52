extension ImageFormat {
    /// Whether a file of this format can hold an animation that the built-in coders read and write: GIF, APNG,
    /// animated WebP, AVIF sequences and animated JPEG XL. HEIF image sequences are not (libheif 1.15 has no
    /// sequence API), nor TIFF pages, which are frames of a document, not of an animation.
    public var holdsAnimation: Bool {
        switch self {
        case .gif, .png, .webp, .avif, .jxl: true
        default: false
        }
    }
}
