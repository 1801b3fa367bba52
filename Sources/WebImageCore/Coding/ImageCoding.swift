import Foundation

/// Decodes bytes of the formats it recognises. Thrown errors are ``WebImageError``.
public protocol ImageDecoding: AnyObject, Sendable {
    /// Whether these bytes are in a format this decoder reads (a cheap signature check).
    func canDecode(_ data: Data) -> Bool
    /// Decodes every frame (or only the first, per `options`), composited, at the size the options ask for.
    func decode(_ data: Data, options: ImageDecodeOptions) throws -> Image
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
/// from the previous one), random access replays from the nearest earlier full frame.
public protocol AnimatedImageDecoder: AnyObject, Sendable {
    var format: ImageFormat { get }
    /// The canvas size every frame is delivered at.
    var pixelSize: PixelSize { get }
    var frameCount: Int { get }
    /// How often the animation plays; 0 = forever.
    var loopCount: Int { get }
    var hasAlpha: Bool { get }
    /// Seconds frame `index` is shown.
    func frameDuration(at index: Int) -> Double
    /// Frame `index` composited onto the full canvas.
    func frame(at index: Int) throws -> PixelBuffer
}
