/// Per-format encoder settings beyond ``ImageEncodeOptions/effort`` (imgproxy's `IMGPROXY_JPEG_PROGRESSIVE`,
/// `IMGPROXY_JPEG_NO_SUBSAMPLE`, `IMGPROXY_PNG_INTERLACED`, `IMGPROXY_PNG_QUANTIZE` with `_QUANTIZATION_COLORS`,
/// `IMGPROXY_WEBP_COMPRESSION`, `IMGPROXY_WEBP_SMART_SUBSAMPLE`, `IMGPROXY_WEBP_EFFORT`, `IMGPROXY_WEBP_PRESET`,
/// `IMGPROXY_AVIF_SPEED`, `IMGPROXY_AVIF_SUBSAMPLE`, `IMGPROXY_JXL_EFFORT`): each one set replaces what the effort
/// or ``ImageEncodeOptions/lossless`` picks for its format, and the other formats ignore it.
///
/// ```swift
/// var options = ImageEncodeOptions(quality: 0.8)
/// options.tuning.jpegProgressive = true
/// options.tuning.avifSpeed = 8
/// ```
public struct ImageEncodeTuning: Sendable, Hashable {
    /// Write JPEG progressive (TurboJPEG's progressive mode: the image arrives blurred, then sharpens; a few
    /// percent smaller, a little slower to write). Default false: baseline.
    public var jpegProgressive: Bool
    /// When JPEG's chroma is stored at half resolution (4:2:0) rather than full (4:4:4). Default
    /// ``ChromaSubsampling/auto``: below quality 90, as libvips and imgproxy write JPEG.
    public var jpegSubsampling: ChromaSubsampling
    /// Write still PNGs interlaced (Adam7: a coarse image first, refined in seven passes; larger files).
    /// Default false.
    public var pngInterlaced: Bool
    /// Write still PNGs with a palette of at most this many colours (2–256), chosen and dithered by
    /// libimagequant: far smaller files for a small loss. Default nil: truecolour.
    public var pngQuantizeColors: Int?
    /// libwebp's method, 0 (fastest) to 6 (smallest; imgproxy's WebP effort 1–6 is the same number). Default
    /// nil: the effort's (4, or 0 at ``ImageEncodeEffort/fastest``).
    public var webpMethod: Int?
    /// libwebp's preset, which tunes its filters for a kind of picture. Default nil: libwebp's default.
    public var webpPreset: WebPPreset?
    /// WebP's compression: lossy, near-lossless (lossless after a preprocessing that the quality bounds: 100 is
    /// none, lower levels take more) or lossless. Default nil: ``ImageEncodeOptions/lossless`` decides.
    public var webpCompression: WebPCompression?
    /// Lossy WebP's sharp RGB→YUV conversion (libwebp's `use_sharp_yuv`, imgproxy's smart subsampling): crisper
    /// colour edges, slower. Default false.
    public var webpSmartSubsample: Bool
    /// libavif's speed, 0 (slowest, smallest) to 10 (fastest). Default nil: the effort's (6, or 10 at
    /// ``ImageEncodeEffort/fastest``).
    public var avifSpeed: Int?
    /// When lossy AVIF's chroma is stored at half resolution (4:2:0) rather than full (4:4:4). Default
    /// ``ChromaSubsampling/auto``: below quality 90, as libvips and imgproxy write AVIF. Lossless is always 4:4:4.
    public var avifSubsampling: ChromaSubsampling
    /// libjxl's effort, 1 (fastest) to 9 (smallest). Default nil: the effort's (7, or 1 at
    /// ``ImageEncodeEffort/fastest``).
    public var jxlEffort: Int?

    /// The fewest bits a palette index of `colors` entries takes: 1, 2, 4 or 8 (PNG's palette bit depths).
    public static func pngPaletteBitDepth(colors: Int) -> Int {
        colors > 16 ? 8 : colors > 4 ? 4 : colors > 2 ? 2 : 1
    }

    /// When chroma is subsampled (imgproxy's and libvips' `subsample_mode` names).
    public enum ChromaSubsampling: String, Sendable, Hashable, CaseIterable {
        /// Below quality 90 (0.9): where the eye misses the halved colour resolution.
        case auto
        /// Always 4:2:0.
        case on
        /// Never: 4:4:4.
        case off

        /// Whether an image written at `quality` (0…100) is subsampled.
        public func subsamples(atQuality quality: Int) -> Bool {
            switch self {
            case .auto: quality < 90
            case .on: true
            case .off: false
            }
        }
    }

    /// WebP's compressions (imgproxy's `IMGPROXY_WEBP_COMPRESSION` names).
    public enum WebPCompression: String, Sendable, Hashable, CaseIterable {
        case lossy
        case nearLossless = "near_lossless"
        case lossless
    }

    /// The palette a quantised PNG of at most `colors` colours gets, read as imgproxy reads
    /// `IMGPROXY_PNG_QUANTIZATION_COLORS`: the whole of its bit depth's (2, 4, 16 or 256 entries).
    public static func pngPaletteSize(colors: Int) -> Int {
        1 << pngPaletteBitDepth(colors: colors)
    }

    /// libwebp's presets (`cwebp -preset`).
    public enum WebPPreset: String, Sendable, Hashable, CaseIterable {
        case `default`, picture, photo, drawing, icon, text
    }

    public init(jpegProgressive: Bool = false, jpegSubsampling: ChromaSubsampling = .auto,
                pngInterlaced: Bool = false, pngQuantizeColors: Int? = nil, webpMethod: Int? = nil,
                webpPreset: WebPPreset? = nil, webpCompression: WebPCompression? = nil,
                webpSmartSubsample: Bool = false, avifSpeed: Int? = nil, avifSubsampling: ChromaSubsampling = .auto,
                jxlEffort: Int? = nil) {
        self.jpegProgressive = jpegProgressive
        self.jpegSubsampling = jpegSubsampling
        self.pngInterlaced = pngInterlaced
        self.pngQuantizeColors = pngQuantizeColors.map { min(256, max(2, $0)) }
        self.webpMethod = webpMethod.map { min(6, max(0, $0)) }
        self.webpPreset = webpPreset
        self.webpCompression = webpCompression
        self.webpSmartSubsample = webpSmartSubsample
        self.avifSpeed = avifSpeed.map { min(10, max(0, $0)) }
        self.avifSubsampling = avifSubsampling
        self.jxlEffort = jxlEffort.map { min(9, max(1, $0)) }
    }
}
