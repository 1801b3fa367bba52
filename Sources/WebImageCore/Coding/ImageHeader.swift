import Foundation

/// What an image file says about itself before any pixel is decoded: enough to check limits, plan a resize and
/// answer `info` without the cost of a decode.
///
/// The sizes are those of what the coder's ``ImageDecoding/decode(_:options:)`` delivers at full size:
/// ``pixelSize`` is the raster before the ``orientation`` the coder reports (and leaves to the caller), so
/// ``displayedSize`` is what a viewer shows.
public struct ImageHeader: Sendable, Hashable {
    /// The format, as the coder that reads it names it (a generic HEIF file of AV1 items is AVIF).
    public var format: ImageFormat
    /// The size of the decoded raster: as stored, except that HEIF and AVIF files' `clap` crop and `irot`/`imir`
    /// transforms are applied, since their coders deliver those upright.
    public var pixelSize: PixelSize
    /// The size the decoder allocates while decoding: ``pixelSize``, or a HEIF or AVIF file's coded size before
    /// its crop (the one a pixel limit must judge).
    public var codedSize: PixelSize
    /// The orientation the decoded image reports (EXIF, XMP, or JPEG XL's codestream); `.up` when none.
    public var orientation: ImageOrientation
    /// Frames a full decode delivers: 1 for a still.
    public var frameCount: Int
    /// Whether the decoded image has an alpha channel, as ``Image/hasAlpha`` will say.
    public var hasAlpha: Bool
    /// Bits per colour sample as coded (8 for most files; 1–16 for PNG, 10 or 12 for HDR AVIF, HEIF and JPEG XL).
    public var bitDepth: Int
    /// Whether the file describes its colour (an ICC profile, or HEIF/AVIF `nclx` code points or PNG
    /// gAMA/cHRM/sRGB chunks) that decoding converts from; false means sRGB is assumed.
    public var hasColorDescription: Bool
    /// Pages in a document (PDF): a decode renders one of them (``frameCount`` stays 1). 1 for every other format.
    public var pageCount: Int

    /// A header with every field given.
    public init(format: ImageFormat, pixelSize: PixelSize, codedSize: PixelSize? = nil, orientation: ImageOrientation = .up,
                frameCount: Int = 1, hasAlpha: Bool, bitDepth: Int = 8, hasColorDescription: Bool = false, pageCount: Int = 1) {
        self.format = format
        self.pixelSize = pixelSize
        self.codedSize = codedSize ?? pixelSize
        self.orientation = orientation
        self.frameCount = frameCount
        self.hasAlpha = hasAlpha
        self.bitDepth = bitDepth
        self.hasColorDescription = hasColorDescription
        self.pageCount = pageCount
    }

    /// The size a viewer shows: ``pixelSize`` turned by ``orientation``.
    public var displayedSize: PixelSize {
        orientation.swapsDimensions ? PixelSize(width: pixelSize.height, height: pixelSize.width) : pixelSize
    }

    /// Whether a full decode delivers more than one frame.
    public var isAnimated: Bool { frameCount > 1 }
}

/// A decoder that can read a file's ``ImageHeader`` without decoding its pixels (a sibling of
/// ``ImageDecoding``, so coders written before it keep working: ``CodersManager/header(for:)`` decodes those).
public protocol ImageHeaderReading: ImageDecoding {
    /// The header of `data`, reading no more than the container and codestream headers (and, for formats that
    /// announce no frame count, the frame records without their pixels). Throws ``WebImageError/badImageData(_:)``
    /// when the header is missing or damaged; the file's size limits are not checked here.
    func header(_ data: Data) throws -> ImageHeader
}
