import Foundation

/// The descriptive metadata an image file carries besides its pixels: EXIF, XMP and IPTC, each as the bytes of
/// its own standard, independent of the container (a decoder takes them out of JPEG segments, PNG chunks, WebP
/// chunks or ISOBMFF items; an encoder puts them back the way its format stores them).
///
/// Read only when ``ImageDecodeOptions/readsMetadata`` asks; written back by every encoder whose format can
/// hold it (GIF, BMP and ICO hold none).
public struct ImageMetadata: Sendable, Hashable {
    /// EXIF as a TIFF structure (starting `II*\0` or `MM\0*`), without JPEG's `Exif\0\0` prefix or the
    /// ISOBMFF header offset. Nil: none.
    public var exif: Data?
    /// The XMP packet (UTF-8 XML). Nil: none.
    public var xmp: Data?
    /// IPTC-IIM datasets (what a Photoshop image resource 0x0404 holds). Only JPEG stores them. Nil: none.
    public var iptc: Data?

    public init(exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
    }

    /// True when no kind of metadata is present (an empty blob counts as absent).
    public var isEmpty: Bool {
        (exif?.isEmpty ?? true) && (xmp?.isEmpty ?? true) && (iptc?.isEmpty ?? true)
    }
}
