/// How to encode (SDWebImage's `SDImageCoderEncode…` options).
public struct ImageEncodeOptions: Sendable, Hashable {
    /// Lossy quality 0…1 (JPEG, lossy WebP, AVIF, HEIC, lossy JPEG XL through cjxl's distance mapping; for
    /// lossless WebP, the compression effort, which ``ImageEncodeEffort/fastest`` replaces with libwebp's
    /// lowest). Default 1.
    public var quality: Double
    /// Encode WebP, AVIF, HEIC or JPEG XL losslessly. Default false.
    public var lossless: Bool
    /// Colour that transparent pixels are composited onto for formats without alpha (JPEG).
    /// Default nil: white.
    public var backgroundColor: RGBAColor?
    /// Shrink (keeping the aspect ratio, never enlarging) to fit this many pixels before encoding.
    /// Default nil: the image's own size.
    public var maxPixelSize: PixelSize?
    /// Pick the largest quality whose output fits in this many bytes (lossy formats); if even the lowest
    /// quality is larger, the smallest output is returned. Default nil: no limit.
    public var maxFileSize: Int?
    /// Encode only the first frame of an animation. Default false.
    public var firstFrameOnly: Bool
    /// Loop count written into an animation (0 = forever). Default nil: the image's own.
    public var loopCount: Int?
    /// How much CPU the encoder may spend to make the output smaller. Default nil: unset, which an explicit
    /// encode (`CodersManager.encode`, the CLI's `convert`) reads as ``ImageEncodeEffort/balanced`` (the
    /// quality-first output of earlier releases) and the cache stores read as ``ImageEncodeEffort/fastest``:
    /// the manager storing a transformed image or thumbnail with the context's encode options, and
    /// `ImageCache.storeImage` encoding an image that came without bytes (always fastest: it takes no
    /// options). Set it in the context's encode options to choose for the manager's stores.
    public var effort: ImageEncodeEffort?
    /// Per-format settings (progressive JPEG, interlaced or palette PNG, WebP method and preset, AVIF speed,
    /// JPEG XL effort) that replace the effort's for their format. Default: none set.
    public var tuning: ImageEncodeTuning
    /// The resolution written into the file's own resolution field, in dots per inch, clamped to 1…65535:
    /// JPEG's JFIF APP0 segment (units 1, the density rounded; a segment is added when there is none) and PNG's
    /// `pHYs` chunk (pixels per metre, `dpi / 0.0254` rounded, unit 1; an icon's PNG entry too). Other formats
    /// are written as without it (WebP, AVIF, HEIC and JPEG XL carry a resolution only in EXIF, which this does
    /// not touch). Default nil: nothing written (TurboJPEG's JFIF says 1:1 with no unit; a PNG has no `pHYs`).
    public var dpi: Double?

    public init(quality: Double = 1, lossless: Bool = false, backgroundColor: RGBAColor? = nil,
                maxPixelSize: PixelSize? = nil, maxFileSize: Int? = nil, firstFrameOnly: Bool = false,
                loopCount: Int? = nil, effort: ImageEncodeEffort? = nil,
                tuning: ImageEncodeTuning = ImageEncodeTuning(), dpi: Double? = nil) {
        self.quality = min(1, max(0, quality.isFinite ? quality : 1))
        self.lossless = lossless
        self.backgroundColor = backgroundColor
        self.maxPixelSize = maxPixelSize
        self.maxFileSize = maxFileSize
        self.firstFrameOnly = firstFrameOnly
        self.loopCount = loopCount
        self.effort = effort
        self.tuning = tuning
        self.dpi = dpi
    }

    /// The frames an encoder writes: the first alone (with ``firstFrameOnly`` or `firstOnly`) or all of them,
    /// each shrunk to fit ``maxPixelSize`` (keeping the aspect ratio, never enlarging) in its own pixel format.
    /// The one place every built-in encoder takes its input from.
    public func frames(of image: Image, firstOnly: Bool = false) -> [ImageFrame] {
        let frames = firstOnly || firstFrameOnly ? [image.frames[0]] : image.frames
        guard let limit = maxPixelSize, limit.width > 0, limit.height > 0 else { return frames }
        return frames.map { frame in
            let size = ImageGeometry.thumbnailSize(source: frame.pixels.size, requested: limit, preserveAspectRatio: true)
            return size == frame.pixels.size ? frame : ImageFrame(pixels: Resampler.resample(frame.pixels, to: size),
                                                                  duration: frame.duration)
        }
    }

    /// The effort the encoders apply: ``effort``, or ``ImageEncodeEffort/balanced`` when unset.
    public var resolvedEffort: ImageEncodeEffort { effort ?? .balanced }

    /// ``dpi`` as the encoders write it: clamped to 1…65535 (infinity to 65535); nil when unset or NaN.
    public var resolvedDPI: Double? {
        guard let dpi, !dpi.isNaN else { return nil }
        return min(65535, max(1, dpi))
    }

    /// These options with ``effort`` set to `effort` when it is unset (an explicit choice is kept).
    public func withDefaultEffort(_ effort: ImageEncodeEffort) -> ImageEncodeOptions {
        var options = self
        options.effort = self.effort ?? effort
        return options
    }
}

/// An 8-bit straight-alpha colour.
public struct RGBAColor: Sendable, Hashable, Codable {
    public var red, green, blue, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// Parses `#rrggbb` or `#rrggbbaa` (the `#` optional).
    public init?(hex: String) {
        var text = Substring(hex)
        if text.hasPrefix("#") { text = text.dropFirst() }
        guard text.count == 6 || text.count == 8, let value = UInt32(text, radix: 16) else { return nil }
        let v = text.count == 6 ? value << 8 | 0xFF : value
        self.init(red: UInt8(v >> 24), green: UInt8(v >> 16 & 0xFF), blue: UInt8(v >> 8 & 0xFF), alpha: UInt8(v & 0xFF))
    }
}
