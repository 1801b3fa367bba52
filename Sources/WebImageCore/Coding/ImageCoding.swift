import Foundation

/// Decodes bytes of the formats it recognises. Thrown errors are ``WebImageError``.
public protocol ImageDecoding: AnyObject, Sendable {
    /// Whether these bytes are in a format this decoder reads (a cheap signature check).
    func canDecode(_ data: Data) -> Bool
    /// Decodes every frame (or only the first, per `options`), composited, at the size the options ask for.
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image
    /// Decodes exactly like ``decode(_:options:)`` but writes the raster into `buffer`'s storage instead of
    /// allocating one, for callers that decode many images in a row (a server thumbnailing a feed).
    ///
    /// The result is the same image, pixel for pixel and flag for flag; errors are the same too. A large
    /// decode spends as much time having the kernel fault in and zero a fresh raster as decoding, so the
    /// decoder writes through ``PixelBuffer/reinitialize(width:height:format:initializingWith:)``, reusing the
    /// storage when `buffer` is its only owner and it is big enough. A full-size result shares `buffer`'s
    /// storage (no copy), so let it go before the next call; an applied orientation, or a thumbnail or
    /// scale-down the library cannot shrink during decode, is computed from the raster left in `buffer` into
    /// a new image, while one shrunk during decode (PNG and GIF stills row by row, WebP by libwebp) is written
    /// straight at its size and may leave `buffer` untouched. On a throw `buffer` stays a
    /// valid raster (contents unspecified once decoding had started) and can be passed again.
    ///
    /// ```swift
    /// var scratch = PixelBuffer(width: 1, height: 1)
    /// for data in feed {
    ///     let thumbnail = try coder.decode(data, reusing: &scratch, options: .init(thumbnailPixelSize: .init(width: 256, height: 256)))
    ///     try send(thumbnail)
    /// }
    /// ```
    ///
    /// The default implementation calls ``decode(_:options:)`` and leaves `buffer` untouched, so every coder
    /// supports the call; the built-in JPEG, PNG, WebP, GIF, AVIF, HEIF, JPEG XL, TIFF and PDF coders reuse the
    /// buffer for a still (APNG, animated WebP and AVIF sequences fall back to the default; a multi-page TIFF's
    /// first page is reused, its later pages get new storage).
    func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image
}

extension ImageDecoding {
    /// Decodes with ``decode(_:options:)`` and leaves `buffer` untouched: for coders that cannot write into
    /// caller-owned storage.
    public func decode(_ data: Data, reusing buffer: inout PixelBuffer, options: ImageDecodeOptions) throws -> Image {
        try decode(data, options: options)
    }
}

/// Encodes images into the formats it writes. Thrown errors are ``WebImageError``.
public protocol ImageEncoding: AnyObject, Sendable {
    func canEncode(to format: ImageFormat) -> Bool
    /// Encodes the image (all frames where the format can hold an animation).
    func encode(_ image: Image, as format: ImageFormat, options: ImageEncodeOptions) throws -> Data
}

/// A coder for one or more formats (SDWebImage's `SDImageCoder`).
public protocol ImageCoding: ImageDecoding, ImageEncoding {}

/// A coder that can also show an image while its bytes are still arriving (`SDProgressiveImageCoder`).
public protocol ProgressiveImageCoding: ImageCoding {
    /// Whether a partial buffer starting with these bytes can be decoded incrementally.
    func canDecodeIncrementally(_ data: Data) -> Bool
    /// A fresh decoder for one download.
    func makeProgressiveDecoder(options: ImageDecodeOptions) -> any ProgressiveImageDecoder
}

/// Decodes one growing byte stream; owned by a single download, so it needs no locking.
public protocol ProgressiveImageDecoder: AnyObject {
    /// Feeds all bytes received so far (each call passes the whole, longer buffer).
    ///
    /// Returns a partial image (``Image/isIncremental`` true) when the new bytes complete something
    /// visible (a scan, rows, a pass), nil when nothing new can be shown yet. With `isFinished` true the
    /// buffer is complete and the result is the final image (``Image/isIncremental`` false), or an error.
    func decode(_ data: Data, isFinished: Bool) throws -> Image?
}

/// A coder for formats with animation that can decode frames one at a time (`SDAnimatedImageCoder`).
public protocol AnimatedImageCoding: ImageCoding {
    /// A frame-by-frame decoder over complete bytes; throws if they are not a readable image.
    func makeAnimatedDecoder(_ data: Data, options: ImageDecodeOptions) throws -> any AnimatedImageDecoder
}

/// Random access to an animation's composited frames, decoded on demand.
///
/// Implementations are thread-safe; asking for frames in order is the cheap path (each frame is composited
/// from the previous one), random access replays from the nearest earlier full frame. Creating one reads
/// the headers only and enforces the options' animation limits (``ImageDecodeOptions/maxFrameCount``,
/// ``ImageDecodeOptions/maxAnimationPixelCount``). Whatever the frame count, an animation's decoder keeps
/// one full-size canvas (two for libwebp's) and delivers frames at ``pixelSize``.
public protocol AnimatedImageDecoder: AnyObject, Sendable {
    var format: ImageFormat { get }
    /// The canvas size every frame is delivered at.
    var pixelSize: PixelSize { get }
    var frameCount: Int { get }
    /// How often the animation plays; 0 = forever.
    var loopCount: Int { get }
    var hasAlpha: Bool { get }
    /// The EXIF orientation the delivered frames still need (`.up` when the decoder applied it).
    var orientation: ImageOrientation { get }
    /// Seconds frame `index` is shown.
    func frameDuration(at index: Int) -> Double
    /// Frame `index` composited onto the full canvas.
    func frame(at index: Int) throws -> PixelBuffer
}

extension AnimatedImageDecoder {
    /// `.up`: for formats that carry no orientation.
    public var orientation: ImageOrientation { .up }
}
