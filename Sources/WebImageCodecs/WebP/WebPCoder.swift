import CWebP
import Foundation
import WebImageCore

/// Decodes and encodes WebP with libwebp: lossy, lossless and alpha stills, animations (composited with
/// libwebp's animation decoder, refused from the container when over the options' animation limits, scaled
/// frame by frame for thumbnails), the EXIF orientation of an extended file's EXIF chunk, progressive display
/// while downloading, and scaled decoding for thumbnails.
///
/// Still images decode straight into the result's pixel memory; a thumbnail or scale-down size is produced by
/// libwebp's own scaler during decode. Encoding is lossy (`quality` 0…1 → 0…100) or lossless
/// (`lossless`; `quality` is then the compression effort), keeps alpha, and writes animations when the image
/// has several frames.
///
/// ```swift
/// let image = try WebPCoder().decode(data, options: ImageDecodeOptions(thumbnailPixelSize: .init(width: 200, height: 200)))
/// let lossless = try WebPCoder().encode(image, as: .webp, options: ImageEncodeOptions(lossless: true))
/// ```
public final class WebPCoder: ProgressiveImageCoding, AnimatedImageCoding, ImageHeaderReading {
    /// A coder; it holds no state, so one instance can serve every thread.
    public init() {}

    /// Whether the bytes start with a `RIFF….WEBP` header.
    public func canDecode(_ data: Data) -> Bool {
        ImageFormat(sniffing: data) == .webp
    }

    /// Decodes a still (scaled by libwebp when the options ask for a smaller size) or every frame of an
    /// animation; throws ``WebImageError/badImageData(_:)`` for empty, truncated or corrupt bytes.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            var store = RasterStore.fresh
            return try decode(data, store: &store, options: options)
        }
    }

    /// Decodes like ``decode(_:options:)``, a still (lossy or lossless) into `buffer`'s storage, reused when it
    /// is the only owner and big enough (see ``ImageDecoding/decode(_:reusing:options:)``); libwebp scales
    /// thumbnails during decode, so they are written there directly. An animation decodes as usual and leaves
    /// `buffer` alone.
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            try RasterStore.reusing(&buffer) { store in try decode(data, store: &store, options: options) }
        }
    }

    private func decode(_ data: Data, store: inout RasterStore, options: ImageDecodeOptions) throws -> Image {
        let features = try WebPStatus.requiredFeatures(data)
        let image = features.has_animation != 0
            ? try WebPAnimatedDecoding.decode(data, options: options)
            : try WebPStillDecoder.decode(data, features: features, store: &store, options: options)
        return options.attachingMetadata(to: image) { data.withUnsafeBytes(WebPMetadata.read) }
    }

    /// libwebp's bitstream features, and the demuxer's frame count for an animation (no pixel decoding).
    public func header(_ data: Data) throws -> ImageHeader {
        let features = try WebPStatus.requiredFeatures(data)
        var frameCount = 1
        if features.has_animation != 0 {
            guard let counts = WebPAnimationReader.containerCounts(data), counts.frames > 0 else {
                throw WebImageError.badImageData(.corrupt("WebP animation container is invalid or truncated"))
            }
            frameCount = counts.frames
        }
        return data.withUnsafeBytes { bytes in
            ImageHeader(format: .webp, pixelSize: features.pixelSize, orientation: WebPOrientationReader.orientation(in: bytes),
                        frameCount: frameCount, hasAlpha: features.has_alpha != 0,
                        hasColorDescription: WebPICCReader.profile(in: bytes) != nil)
        }
    }

    /// Whether a download starting with these bytes is WebP (decoded incrementally when still).
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        canDecode(data)
    }

    /// A decoder showing rows as they arrive; animated WebP yields nothing until its bytes are complete.
    public func makeProgressiveDecoder(options: ImageDecodeOptions) -> any ProgressiveImageDecoder {
        WebPProgressiveDecoder(options: options)
    }

    /// A lazy frame decoder over libwebp's animation decoder; a still WebP reads as a one-frame animation,
    /// decoded up front like ``decode(_:options:)`` (scaled by libwebp).
    public func makeAnimatedDecoder(_ data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageDecoder {
        guard try WebPStatus.requiredFeatures(data).has_animation != 0 else {
            return DecodedFramesDecoder(try decode(data, options: options))
        }
        return try WebPAnimatedImageDecoder(data, options: options)
    }

    /// True for ``ImageFormat/webp`` only.
    public func canEncode(to format: ImageFormat) -> Bool {
        format == .webp
    }

    /// Encodes as WebP: an animation when the image has several frames (unless `firstFrameOnly`), else a still.
    ///
    /// 16-bit images are reduced to 8 bits and `maxPixelSize` shrinks (never enlarges) first. `maxFileSize`
    /// applies to lossy stills only. An attached ``Image/iccProfile`` goes into an `ICCP` chunk, ``Image/metadata``
    /// into `EXIF` and `XMP ` chunks.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try WorkCancellation.checking {
            guard format == .webp else {
                throw WebImageError.encodingFailed(format: format, reason: "WebPCoder only writes WebP")
            }
            let frames = options.frames(of: image).map { frame in
                ImageFrame(pixels: frame.pixels.converted(to: .rgba8), duration: frame.duration)
            }
            let webp = frames.count > 1
                ? try WebPAnimatedEncoder.encode(frames, loopCount: options.loopCount ?? image.loopCount, options: options)
                : try WebPStillEncoder.encode(frames[0].pixels, options: options)
            var result = webp
            if let profile = image.iccProfile, !profile.isEmpty { result = try WebPChunkWriter.attach([(name: "ICCP", data: profile)], to: result) }
            guard let metadata = image.metadata else { return result }
            return try WebPMetadata.attach(metadata, orientation: image.orientation, to: result)
        }
    }
}
