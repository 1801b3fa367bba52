import Foundation
import WebImageCore

/// Decodes and encodes AVIF with libavif 0.11 (AV1 decoding by dav1d, encoding by libaom): stills with 8-bit
/// or, for 10- and 12-bit sources, 16-bit storage; alpha (straight, unpremultiplied when the file says `prem`);
/// grids; the `clap`, `irot` and `imir` transforms, applied here because libavif 0.11 does not (see
/// ``AVIFGeometry``); and image sequences (`avis`) as animations with lazy frame access.
///
/// Files are routed here by their `ftyp` brands: an `avif`/`avis` major brand, or a generic HEIF one (`mif1`,
/// `msf1`) whose compatible brands name AV1. The pixel limit is checked from the container before any AV1
/// data is decoded, the animation limits from the sequence's sample table. Not supported by libavif 0.11, so
/// not here: embedded thumbnails (a thumbnail request decodes the full image and scales it), the repetition
/// count (sequences report and are written with 0, forever), and partial display while downloading (the
/// progressive decoder shows nothing until the file is complete).
///
/// ```swift
/// let image = try AVIFCoder().decode(data, options: ImageDecodeOptions(thumbnailPixelSize: .init(width: 200, height: 200)))
/// let lossless = try AVIFCoder().encode(image, as: .avif, options: ImageEncodeOptions(lossless: true))
/// ```
public final class AVIFCoder: ProgressiveImageCoding, AnimatedImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the `ftyp` brands announce AV1: the bytes sniff as ``ImageFormat/avif`` (one brand table for
    /// sniffing and routing; see ``ImageFormat/init(sniffing:)``).
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .avif
    }

    /// Decodes a still or every frame of a sequence; throws ``WebImageError/badImageData(_:)`` for empty,
    /// truncated, corrupt or oversized files.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            var store = RasterStore.fresh
            // libavif 0.11 has no thumbnail API; libheif reads AVIF's `thmb` items.
            if options.coderOptions[EmbeddedThumbnail.self],
               let thumbnail = try HEIFDecoding.embeddedThumbnail(data, format: .avif, store: &store, options: options) {
                return options.attachingMetadata(to: thumbnail) { AVIFMetadata.read(data) }
            }
            let image = try AVIFDecoding.decode(data, store: &store, options: options)
            return options.attachingMetadata(to: image) { AVIFMetadata.read(data) }
        }
    }

    /// Decodes like ``decode(_:options:)``, a still's coded raster into `buffer`'s storage (see
    /// ``ImageDecoding/decode(_:reusing:options:)``); a cropped, rotated or scaled result is a new raster made
    /// from it. A sequence decodes as usual and leaves `buffer` alone.
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            let image = try RasterStore.reusing(&buffer) { store in try AVIFDecoding.decode(data, store: &store, options: options) }
            return options.attachingMetadata(to: image) { AVIFMetadata.read(data) }
        }
    }

    /// The container as libavif parses it (no AV1 decoding): the displayed size after `clap`, `irot` and `imir`,
    /// which decoding applies, the coded size, the frame count of a sequence, alpha, depth and colour.
    public func header(_ data: Data) throws -> ImageHeader {
        let session = try AVIFDecoderSession(data, options: ImageDecodeOptions(maxPixelCount: .max))
        return ImageHeader(format: .avif, pixelSize: session.geometry.displaySize, codedSize: session.codedSize,
                           frameCount: session.frameCount, hasAlpha: session.hasAlpha, bitDepth: session.depth,
                           hasColorDescription: session.color.differsFromSRGB)
    }

    /// Whether a download starting with these bytes is AVIF (the decoder shows nothing until it is complete).
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// A decoder that returns no partial image and decodes the complete file at the end.
    public func makeProgressiveDecoder(options: ImageDecodeOptions) -> any ProgressiveImageDecoder {
        WholeFileProgressiveDecoder { [self] data in try decode(data, options: options) }
    }

    /// A lazy frame decoder over libavif for a sequence; a still reads as a one-frame animation, decoded up
    /// front like ``decode(_:options:)``.
    public func makeAnimatedDecoder(_ data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageDecoder {
        let session = try AVIFDecoderSession(data, options: options)
        guard session.frameCount > 1, !options.firstFrameOnly else {
            return DecodedFramesDecoder(try decode(data, options: options))
        }
        return try AVIFAnimatedImageDecoder(session: session, options: options)
    }

    /// True for ``ImageFormat/avif`` only.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .avif
    }

    /// Encodes as AVIF: a sequence when the image has several frames (unless `firstFrameOnly`), else a still
    /// (see ``AVIFEncoder`` for quality, lossless, effort and orientation).
    ///
    /// `maxPixelSize` shrinks (never enlarges) first; `maxFileSize` is not supported (the first encode is
    /// returned).
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try WorkCancellation.checking {
            guard format == .avif else {
                throw WebImageError.encodingFailed(format: format, reason: "AVIFCoder only writes AVIF")
            }
            return try AVIFEncoder.encode(options.frames(of: image), orientation: image.orientation, iccProfile: image.iccProfile,
                                          metadata: image.metadata, options: options)
        }
    }
}
