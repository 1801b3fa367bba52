import WebImageCore

/// How the pixels a profile describes are laid out, which decides the conversion built for it.
enum ColorSourceLayout: Hashable {
    /// `.rgba8` or `.rgba16` rasters (grey sources already spread over R, G and B).
    case rgba(PixelFormat)
    /// Four 8-bit CMYK samples a pixel (TurboJPEG's CMYK output), `inverted` for Adobe's 255 − ink.
    case cmyk(inverted: Bool)
}
