import Foundation

/// A decoded image: the Linux counterpart of `UIImage` plus SDWebImage's associated flags.
///
/// Immutable and `Sendable`; a class so caches can hold it weakly and share it without copying pixels.
/// Sizes are in pixels; ``size`` is the logical size (pixels ÷ ``scale``).
///
/// ```swift
/// let image = try CodersManager.shared.decode(data, options: .init())
/// print(image.pixelWidth, image.pixelHeight, image.frameCount)
/// ```
public final class Image: Sendable {
    /// Every frame, composited onto the full canvas; one for a still image. Never empty.
    public let frames: [ImageFrame]
    /// Points-to-pixels factor (2 for `@2x` resources); the logical size is pixels ÷ scale.
    public let scale: Double
    /// The EXIF orientation the pixels still need (`.up` once applied).
    public let orientation: ImageOrientation
    /// How often an animation plays; 0 means forever.
    public let loopCount: Int
    /// The container the image was decoded from (`.undefined` for one built in memory).
    public let format: ImageFormat
    /// Whether the source can carry transparency (an alpha channel, tRNS, a transparent GIF index…).
    public let hasAlpha: Bool
    /// A partial result of progressive decoding, not the final image.
    public let isIncremental: Bool
    /// Decoded at a reduced thumbnail size rather than full size.
    public let isThumbnail: Bool
    /// Produced by a transformer rather than straight from the decoder.
    public let isTransformed: Bool
    /// Caller-defined extra bytes carried with the image (SDWebImage's extended object); stored beside it on disk.
    public let extendedData: Data?
    /// The options the decoder produced it with (SDWebImage's `sd_decodeOptions`); nil for an image built in
    /// memory. Caches compare them with a request's (``ImageDecodeOptions/givesSamePixels(as:)``).
    public let decodeOptions: ImageDecodeOptions?
    /// The untouched bytes of the animation it was made from (SDWebImage's `animatedImageData`), which a
    /// cache stores instead of re-encoding the frames; nil otherwise. A copy with other frames drops them.
    public let animatedImageData: Data?
    /// The ICC profile the pixels are in, which encoders write back: attached by a decode with
    /// ``DecodeColorSpace/preserve``, or set on an image built in memory. Nil means sRGB.
    public let iccProfile: Data?
    /// Why the embedded colour profile was not applied (it could not be read, or lcms2 could not build a
    /// transform from it): the pixels are as stored. Nil when there was nothing wrong.
    public let colorProfileIssue: String?
    /// The EXIF, XMP and IPTC the file carried (a decode with ``ImageDecodeOptions/readsMetadata``) or that
    /// encoders should write; nil: none. Encoders write it as is, except that the EXIF orientation is made to
    /// match ``orientation``.
    public let metadata: ImageMetadata?
    /// Rasterised from a vector source (SVG, PDF: SDWebImage's `sd_isVector`): transformers leave it alone unless
    /// ``WebImageOptions/transformVectorImage`` is set, since a better raster comes from rasterising at the size
    /// wanted.
    public let isVector: Bool

    public init(frames: [ImageFrame], scale: Double = 1, orientation: ImageOrientation = .up, loopCount: Int = 0,
                format: ImageFormat = .undefined, hasAlpha: Bool? = nil, isIncremental: Bool = false,
                isThumbnail: Bool = false, isTransformed: Bool = false, extendedData: Data? = nil,
                decodeOptions: ImageDecodeOptions? = nil, animatedImageData: Data? = nil, iccProfile: Data? = nil,
                colorProfileIssue: String? = nil, metadata: ImageMetadata? = nil,
                isVector: Bool = false) {
        precondition(!frames.isEmpty, "an Image needs at least one frame")
        self.frames = frames
        self.scale = scale > 0 && scale.isFinite ? scale : 1
        self.orientation = orientation
        self.loopCount = max(0, loopCount)
        self.format = format
        self.hasAlpha = hasAlpha ?? frames.contains { $0.pixels.containsTransparency }
        self.isIncremental = isIncremental
        self.isThumbnail = isThumbnail
        self.isTransformed = isTransformed
        self.extendedData = extendedData
        self.decodeOptions = decodeOptions
        self.animatedImageData = animatedImageData
        self.iccProfile = iccProfile
        self.colorProfileIssue = colorProfileIssue
        self.metadata = metadata?.isEmpty == false ? metadata : nil
        self.isVector = isVector
    }

    /// A still image from one raster.
    public convenience init(pixels: PixelBuffer, scale: Double = 1, orientation: ImageOrientation = .up,
                            format: ImageFormat = .undefined, hasAlpha: Bool? = nil) {
        self.init(frames: [ImageFrame(pixels: pixels)], scale: scale, orientation: orientation,
                  format: format, hasAlpha: hasAlpha)
    }

    /// The first frame's raster (the whole image when still).
    public var pixels: PixelBuffer { frames[0].pixels }
    public var pixelWidth: Int { pixels.width }
    public var pixelHeight: Int { pixels.height }
    public var pixelSize: PixelSize { pixels.size }
    public var pixelFormat: PixelFormat { pixels.format }
    public var frameCount: Int { frames.count }
    public var isAnimated: Bool { frames.count > 1 }
    /// Each frame's duration in seconds.
    public var frameDurations: [Double] { frames.map(\.duration) }

    /// The logical size: pixels ÷ scale, with width and height swapped for orientations 5…8.
    public var size: (width: Double, height: Double) {
        let w = Double(pixelWidth) / scale, h = Double(pixelHeight) / scale
        return orientation.swapsDimensions ? (h, w) : (w, h)
    }

    /// Whether this is the image a decode with `request` would give: true without a request, for images built
    /// in memory and for transformed ones (their key already names the transform).
    public func matches(decodeOptions request: ImageDecodeOptions?) -> Bool {
        guard let request, let decodeOptions, !isTransformed else { return true }
        return decodeOptions.givesSamePixels(as: request)
    }

    /// Bytes held in memory: bytes per row × height × frame count (the cache's cost).
    public var memoryCost: Int { pixels.bytesPerRow * pixelHeight * frames.count }

    /// A copy with some properties changed; everything not named is kept, except ``animatedImageData``, which
    /// only a copy with the same frames keeps.
    public func with(frames: [ImageFrame]? = nil, scale: Double? = nil, orientation: ImageOrientation? = nil,
                     loopCount: Int? = nil, format: ImageFormat? = nil, hasAlpha: Bool? = nil,
                     isIncremental: Bool? = nil, isThumbnail: Bool? = nil, isTransformed: Bool? = nil,
                     extendedData: Data?? = nil, decodeOptions: ImageDecodeOptions?? = nil, iccProfile: Data?? = nil,
                     colorProfileIssue: String?? = nil, metadata: ImageMetadata?? = nil,
                     isVector: Bool? = nil) -> Image {
        Image(frames: frames ?? self.frames, scale: scale ?? self.scale, orientation: orientation ?? self.orientation,
              loopCount: loopCount ?? self.loopCount, format: format ?? self.format,
              hasAlpha: hasAlpha ?? self.hasAlpha, isIncremental: isIncremental ?? self.isIncremental,
              isThumbnail: isThumbnail ?? self.isThumbnail, isTransformed: isTransformed ?? self.isTransformed,
              extendedData: extendedData ?? self.extendedData, decodeOptions: decodeOptions ?? self.decodeOptions,
              animatedImageData: frames == nil ? animatedImageData : nil, iccProfile: iccProfile ?? self.iccProfile,
              colorProfileIssue: colorProfileIssue ?? self.colorProfileIssue, metadata: metadata ?? self.metadata,
              isVector: isVector ?? self.isVector)
    }

    /// This image stamped with `options` when its coder recorded none: SDWebImage's loader and cache set
    /// `sd_decodeOptions` after whichever coder decoded, so a custom coder need not know about it.
    public func recordingDecodeOptions(_ options: ImageDecodeOptions) -> Image {
        decodeOptions == nil ? with(decodeOptions: options) : self
    }
}
