import Foundation
import WebImageCore

/// Decodes and encodes JPEG XL with libjxl 0.7: stills of any bit depth (16-bit storage above 8 bits, floats
/// included), alpha (associated alpha unpremultiplied), layered and CMYK files composited by libjxl,
/// recompressed JPEGs, animations (lazy frame access, the animation limits checked from the frame headers),
/// progressive display while downloading, and encoding (lossy, lossless, alpha, animation).
///
/// The orientation is read from the codestream header and reported, not applied by libjxl
/// (`JxlDecoderSetKeepOrientation`), so ``ImageDecodeOptions/applyOrientation`` turns the pixels upright exactly
/// once, as for the other formats. libjxl has no reduced-size decode, so thumbnails and the scale-down limit
/// resample the decoded raster (an animation frame by frame); the pixel limit is checked from the header
/// before any raster is allocated.
///
/// ```swift
/// let image = try JXLCoder().decode(data, options: .init(thumbnailPixelSize: .init(width: 256, height: 256)))
/// let lossless = try JXLCoder().encode(image, as: .jxl, options: .init(lossless: true))
/// ```
public final class JXLCoder: ProgressiveImageCoding, AnimatedImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the bytes start with a JPEG XL codestream (`FF 0A`) or container signature.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .jxl
    }

    /// The codestream's basic info and colour encoding, and for an animation the frame headers (libjxl decodes
    /// no pixels for either): the stored size, the orientation decoding reports, frames, alpha and depth.
    public func header(_ data: Data) throws -> ImageHeader {
        let unlimited = ImageDecodeOptions(maxPixelCount: .max, maxFrameCount: .max, maxAnimationPixelCount: .max)
        let reader = try JXLFrameReader(data, options: unlimited)
        let header = reader.header
        let frameCount = header.isAnimated ? try JXLFrameIndex.durations(of: data, header: header, options: unlimited).count : 1
        return ImageHeader(format: .jxl, pixelSize: header.size, orientation: header.orientation,
                           frameCount: max(1, frameCount), hasAlpha: header.hasAlpha, bitDepth: header.bitsPerSample,
                           hasColorDescription: reader.iccProfile != nil)
    }

    /// Decodes a still (or an animation's first frame with `firstFrameOnly`) or every frame of an animation;
    /// throws ``WebImageError/badImageData(_:)`` for empty, truncated or corrupt bytes.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            var store = RasterStore.fresh
            let image = try JXLDecoding.decode(data, store: &store, options: options)
            return options.attachingMetadata(to: image) { data.withUnsafeBytes(JXLMetadata.read) }
        }
    }

    /// Decodes like ``decode(_:options:)``, a still into `buffer`'s storage, reused when it is the only owner
    /// and big enough (see ``ImageDecoding/decode(_:reusing:options:)``); an animation leaves `buffer` alone.
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            let image = try RasterStore.reusing(&buffer) { store in try JXLDecoding.decode(data, store: &store, options: options) }
            return options.attachingMetadata(to: image) { data.withUnsafeBytes(JXLMetadata.read) }
        }
    }

    /// Whether a download starting with these bytes is JPEG XL.
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// A decoder showing each progressive step of a still as it arrives; an animation yields nothing until its
    /// bytes are complete.
    public func makeProgressiveDecoder(options: ImageDecodeOptions) -> any ProgressiveImageDecoder {
        JXLProgressiveDecoder(options: options)
    }

    /// A lazy frame decoder for an animation; a still reads as a one-frame animation decoded up front.
    public func makeAnimatedDecoder(_ data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageDecoder {
        let reader = try JXLFrameReader(data, options: options)
        guard reader.header.isAnimated else { return DecodedFramesDecoder(try decode(data, options: options)) }
        return try JXLAnimatedImageDecoder(data, reader: reader, options: options)
    }

    /// True for ``ImageFormat/jxl`` only.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .jxl
    }

    /// Encodes as JPEG XL: an animation when the image has several frames (unless `firstFrameOnly`), else a
    /// still; `maxPixelSize` shrinks (never enlarges) first. `maxFileSize` does not apply.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try WorkCancellation.checking {
            guard format == .jxl else {
                throw WebImageError.encodingFailed(format: format, reason: "JXLCoder only writes JPEG XL")
            }
            return try JXLEncoder.encode(options.frames(of: image), orientation: image.orientation,
                                         loopCount: options.loopCount ?? image.loopCount,
                                         iccProfile: image.iccProfile.map { [UInt8]($0) },
                                         metadata: image.metadata, options: options)
        }
    }
}
