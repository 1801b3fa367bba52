import CHEIF
import Foundation
import WebImageCore

/// Decodes HEIF and HEIC with libheif 1.15 (HEVC by libde265) and encodes HEIC with its x265 encoder.
///
/// Decoding gives the primary image: 8-bit, or 16-bit storage for 10- and 12-bit sources; alpha (straight,
/// divided out when the file says `prem`); grids; the `clap`, `irot` and `imir` transforms, which libheif
/// applies (the image comes out upright with orientation `.up`; an EXIF orientation is not applied again). A
/// thumbnail or scale-down request uses the file's embedded thumbnail when it is at least the requested size.
/// Files are routed here by their `ftyp` brands: `heic`, `heix`, `heim`, `heis`, `hevc`, `hevx`, `hevm`, `hevs`,
/// or a generic `mif1`/`msf1` whose compatible brands do not name AV1 (those go to ``AVIFCoder``). libheif
/// refuses codecs it has no decoder for (AVC, JPEG 2000) with a typed error.
///
/// Not supported by Debian's libheif 1.15, so not here: image sequences (`msf1`, `.heics`; it has no track
/// API): their primary image decodes as a still, and a file with only a track is refused; partial display
/// while downloading (the progressive decoder shows nothing until the file is complete).
///
/// ```swift
/// let image = try HEIFCoder().decode(data, options: ImageDecodeOptions())
/// let heic = try HEIFCoder().encode(image, as: .heic, options: ImageEncodeOptions(quality: 0.8))
/// ```
public final class HEIFCoder: ProgressiveImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the `ftyp` brands announce HEVC or a generic HEIF file: the bytes sniff as ``ImageFormat/heic`` or
    /// ``ImageFormat/heif`` (one brand table for sniffing and routing; see ``ImageFormat/init(sniffing:)``).
    public func canDecode(_ data: Data) -> Bool {
        let format = ImageFormat(sniffing: data)
        return format == .heic || format == .heif
    }

    /// Decodes the primary image (or a large-enough embedded thumbnail); throws
    /// ``WebImageError/badImageData(_:)`` for empty, truncated, corrupt, unsupported or oversized files.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            var store = RasterStore.fresh
            let image = try HEIFDecoding.decode(data, store: &store, options: options)
            return options.attachingMetadata(to: image) { HEIFMetadata.read(data) }
        }
    }

    /// Decodes like ``decode(_:options:)``, copying libheif's output into `buffer`'s storage (see
    /// ``ImageDecoding/decode(_:reusing:options:)``).
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            let image = try RasterStore.reusing(&buffer) { store in try HEIFDecoding.decode(data, store: &store, options: options) }
            return options.attachingMetadata(to: image) { HEIFMetadata.read(data) }
        }
    }

    /// Whether a download starting with these bytes is HEIF (the decoder shows nothing until it is complete).
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// A decoder that returns no partial image and decodes the complete file at the end.
    public func makeProgressiveDecoder(options: ImageDecodeOptions) -> any ProgressiveImageDecoder {
        WholeFileProgressiveDecoder { [self] data in try decode(data, options: options) }
    }

    /// True for ``ImageFormat/heic`` and ``ImageFormat/heif`` (both written as HEVC-coded HEIC).
    /// The primary image as libheif reads the boxes (no HEVC decoding): its displayed size (libheif applies
    /// `clap`, `irot` and `imir`), its `ispe` size, alpha, depth and colour.
    public func header(_ data: Data) throws -> ImageHeader {
        try data.withUnsafeBytes { bytes in
            let file = try HEIFFile(bytes, options: ImageDecodeOptions(maxPixelCount: .max))
            let coded = PixelSize(width: Int(heif_image_handle_get_ispe_width(file.primary)),
                                  height: Int(heif_image_handle_get_ispe_height(file.primary)))
            return ImageHeader(format: HEIFDecoding.format(of: data), pixelSize: file.displaySize,
                               codedSize: coded.pixelCount > 0 ? coded : file.displaySize, hasAlpha: file.hasAlpha,
                               bitDepth: max(8, Int(heif_image_handle_get_luma_bits_per_pixel(file.primary))),
                               hasColorDescription: HEIFDecoding.embeddedColor(of: file.primary)?.differsFromSRGB ?? false)
        }
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        format == .heic || format == .heif
    }

    /// Encodes the first frame as HEIC (libheif 1.15 writes no sequences); see ``HEIFEncoder`` for quality,
    /// lossless, effort and orientation. `maxPixelSize` shrinks (never enlarges) first; `maxFileSize` is not
    /// supported (the first encode is returned).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try WorkCancellation.checking {
            guard canEncode(to: format) else {
                throw WebImageError.encodingFailed(format: format, reason: "HEIFCoder only writes HEIC")
            }
            let pixels = options.frames(of: image, firstOnly: true)[0].pixels
            return try HEIFEncoder.encode(pixels, orientation: image.orientation, iccProfile: image.iccProfile,
                                          metadata: image.metadata, options: options)
        }
    }
}
