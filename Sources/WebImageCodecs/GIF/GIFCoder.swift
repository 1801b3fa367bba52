import Foundation
import WebImageCore

/// Decodes and encodes GIF with giflib (SDWebImage's `SDImageGIFCoder`), including animation and
/// progressive display.
///
/// Frames are composited onto the logical screen (disposal none/background/previous, transparency,
/// interlacing, local and global colour tables, frames clipped to the screen). Frame durations follow
/// SDWebImage: a delay under 11 ms counts as 100 ms. The loop count is the NETSCAPE2.0 value, 1 when the file
/// has none. A truncated or damaged file keeps the frames decoded before the damage (at least one is needed).
///
/// ```swift
/// let image = try GIFCoder().decode(data, options: .init())
/// print(image.frameCount, image.frameDurations, image.loopCount)
/// ```
public final class GIFCoder: ProgressiveImageCoding, AnimatedImageCoding, ImageHeaderReading {
    /// A stateless coder; one instance can serve every thread.
    public init() {}

    /// Whether the bytes start with the `GIF` signature.
    public func canDecode(_ data: Data) -> Bool {
        data.starts(with: "GIF".utf8)
    }

    /// Decodes every frame (or the first, per `options`), composited, then thumbnails/scales per `options`.
    public func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            try GIFDecoding.decode(data, options: options)
        }
    }

    /// Decodes like ``decode(_:options:)``, painting the first frame into `buffer`'s storage, reused when it
    /// is the only owner and big enough (see ``ImageDecoding/decode(_:reusing:options:)``); every later frame
    /// of an animation still gets its own raster.
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        try WorkCancellation.checking {
            try RasterStore.reusing(&buffer) { store in try GIFDecoding.decode(data, store: &store, options: options) }
        }
    }

    /// True for ``ImageFormat/gif`` only.
    /// The screen size, and the frame count and transparency from the records, skipping their pixels.
    public func header(_ data: Data) throws -> ImageHeader {
        try GIFImageHeader.read(data)
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        format == .gif
    }

    /// Encodes every frame (or the first) with a palette of at most 256 colours, exact when the frame has
    /// that few; pixels with alpha under 128 become the transparent index.
    public func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data {
        try WorkCancellation.checking {
            guard format == .gif else {
                throw WebImageError.encodingFailed(format: format, reason: "GIFCoder only writes GIF")
            }
            return try GIFEncoder.encode(image, options: options)
        }
    }

    /// True for a buffer that starts like a GIF (even a single byte of it).
    public func canDecodeIncrementally(_ data: Data) -> Bool {
        !data.isEmpty && "GIF".utf8.starts(with: data.prefix(3))
    }

    /// A decoder that shows the first frame's rows as they arrive, then the final image once finished.
    public func makeProgressiveDecoder(options: ImageDecodeOptions) -> any ProgressiveImageDecoder {
        GIFProgressiveDecoder(options: options)
    }

    /// A lazy decoder: parses the records once, then decodes and composites frames on demand.
    public func makeAnimatedDecoder(_ data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageDecoder {
        try GIFAnimatedDecoder(data: data, options: options)
    }
}
