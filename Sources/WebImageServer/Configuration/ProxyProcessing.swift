import Foundation
import WebImage

extension ImageProxyConfiguration {
    /// What processing starts from: presets, the default qualities, the coders.
    public struct Processing: Sendable {
        /// Named option lists for `preset:NAME`; one named `default` applies to every URL first. Default none.
        public var presets: [String: String]
        /// The image `watermark` draws (imgproxy's `IMGPROXY_WATERMARK_PATH` or `_DATA`); a URL asking for a
        /// watermark without one gets none, as in imgproxy. Default nil.
        public var watermark: Image?
        /// Multiplies every watermark's opacity (imgproxy's `IMGPROXY_WATERMARK_OPACITY`). Default 1.
        public var watermarkOpacity = 1.0
        /// The encoded image answered, processed like the source, when a source is missing, failing, too slow or
        /// not an image (imgproxy's `IMGPROXY_FALLBACK_IMAGE_PATH` or `_DATA`). Default nil: the error.
        public var fallbackImage: Data?
        /// imgproxy's presets-only mode: a URL's options are one segment of `:`-separated preset names.
        /// Default false.
        public var onlyPresets: Bool = false
        /// Quality used when the URL gives none and ``formatQuality`` has none for the format (imgproxy's
        /// `IMGPROXY_QUALITY`). Default 80.
        public var defaultQuality: Int
        /// Quality by output format when the URL gives none (imgproxy's `IMGPROXY_FORMAT_QUALITY`). Default
        /// imgproxy's: WebP 79, AVIF 63, JPEG XL 77.
        public var formatQuality: [ImageFormat: Int]
        /// The encoders' settings for every result, which a URL's `jpeg_options`, `png_options`, `webp_options` and
        /// `avif_options` may replace (imgproxy's `IMGPROXY_JPEG_PROGRESSIVE`, `IMGPROXY_JPEG_NO_SUBSAMPLE`,
        /// `IMGPROXY_PNG_INTERLACED`, `IMGPROXY_WEBP_COMPRESSION`, `IMGPROXY_WEBP_SMART_SUBSAMPLE`,
        /// `IMGPROXY_WEBP_EFFORT`, `IMGPROXY_WEBP_PRESET`, `IMGPROXY_AVIF_SPEED`, `IMGPROXY_AVIF_SUBSAMPLE` and
        /// `IMGPROXY_JXL_EFFORT`; the palette size comes from ``pngQuantizes``). Default imgproxy's but for AVIF:
        /// baseline JPEG and AVIF subsampled below quality 90, non-interlaced PNG, lossy WebP at method 4 with
        /// libwebp's default preset, JPEG XL effort 4, and AVIF speed 10 (imgproxy's is 8): the service answers
        /// AVIF to every client that lists it, and speed 10 costs a fraction of 8's CPU for somewhat larger files.
        public var encoderTuning = ImageEncodeTuning(webpMethod: 4, avifSpeed: 10, jxlEffort: 4)
        /// Write PNG results with a palette of at most ``pngQuantizationColors`` colours (imgproxy's
        /// `IMGPROXY_PNG_QUANTIZE`); it sets ``encoderTuning``'s palette size. Default false.
        public var pngQuantizes = false
        /// How many colours such a palette may hold, 2–256 (imgproxy's `IMGPROXY_PNG_QUANTIZATION_COLORS`), read as
        /// imgproxy does: it picks the palette's bit depth, so the palette holds up to 2, 4, 16 or 256 colours.
        /// Default 256.
        public var pngQuantizationColors = 256
        /// imgproxy Pro's autoquality for every result, which a URL's `autoquality` may replace. Default off.
        public var autoQuality = AutoQuality()
        /// imgproxy Pro's unsharp masking, which a URL's `unsharp_masking` may replace. Default off.
        public var unsharpMasking = UnsharpMasking()
        /// imgproxy Pro's `best` format: how it chooses. Default imgproxy's.
        public var bestFormat = BestFormat()
        /// Convert results to sRGB and drop the colour profile unless the URL says `strip_color_profile:false`
        /// (imgproxy's `IMGPROXY_STRIP_COLOR_PROFILE`). Default true.
        public var stripsColorProfile = true
        /// Turn sources upright by their EXIF orientation unless the URL says `auto_rotate:false` (imgproxy's
        /// `IMGPROXY_AUTO_ROTATE`). Default true.
        public var autoRotates = true
        /// Process an HEIC or AVIF source's embedded thumbnail unless the URL says `enforce_thumbnail:false`
        /// (imgproxy's `IMGPROXY_ENFORCE_THUMBNAIL`). Default false.
        public var enforcesThumbnail = false
        /// Source formats answered unprocessed when the URL names no other format, for every URL (imgproxy's
        /// `IMGPROXY_SKIP_PROCESSING_FORMATS`; a URL's `skip_processing` replaces them). Default none.
        public var skipProcessingFormats: Set<ImageFormat> = []
        /// Drop the source's metadata from results unless the URL says `strip_metadata:false` (imgproxy's
        /// `IMGPROXY_STRIP_METADATA`). Default true.
        public var stripsMetadata = true
        /// Keep the copyright when stripping metadata unless the URL says `keep_copyright:false` (imgproxy's
        /// `IMGPROXY_KEEP_COPYRIGHT`). Default true.
        public var keepsCopyright = true
        /// Answer an SVG source asked for as SVG (or in no format) sanitized: scripts, handlers, `foreignObject`
        /// and references to other documents removed (imgproxy's `IMGPROXY_SANITIZE_SVG`). Default true.
        public var sanitizesSVG = true
        /// Rasterise an SVG source whose URL names no format, rather than answer it as SVG (imgproxy's
        /// `IMGPROXY_ALWAYS_RASTERIZE_SVG`). Default false.
        public var alwaysRasterizesSVG = false
        /// Render PDF sources (the first page, or those imgproxy Pro's `page` and `pages` choose), each page in a
        /// child process bounded as ``pdfRendering`` says: poppler can neither stop a page's drawing nor bound its
        /// memory. imgproxy has PDF only in its Pro edition.
        /// Default false: a PDF source is refused with 422.
        public var rendersPDF = false
        /// The child processes PDF pages are drawn in. Default: this executable with `pdf-page`, 256 MiB, 30 s of CPU.
        public var pdfRendering = PDFRendering()
        /// Read video sources, a poster frame each, as ``videoThumbnails`` says (imgproxy Pro's
        /// `IMGPROXY_ENABLE_VIDEO_THUMBNAILS`). Default false: a video source is refused with 422.
        public var readsVideo = false
        /// How video sources are read when ``readsVideo`` is on. Default: imgproxy Pro's defaults, in children.
        public var videoThumbnails = VideoThumbnails()
        /// The coders sources are read, decoded and encoded with: their headers (``ImageHeaderReading``) decide
        /// which sources are images, and their limits apply. Default `CodersManager.shared` (every built-in
        /// coder).
        public var coders: CodersManager

        /// The options every URL starts from, before the `default` preset and its own.
        var baseOptions: ProcessingOptions {
            var options = ProcessingOptions()
            options.stripColorProfile = stripsColorProfile
            options.enforceThumbnail = enforcesThumbnail
            options.autoRotate = autoRotates
            options.skipProcessing = skipProcessingFormats
            options.stripMetadata = stripsMetadata
            options.keepCopyright = keepsCopyright
            options.videoThumbnailSecond = videoThumbnails.second
            options.videoThumbnailKeyframes = videoThumbnails.keyframes
            return options
        }

        /// The qualities a result gets when its URL gives none, and the encoders' settings.
        var encodingDefaults: EncodingDefaults {
            var tuning = encoderTuning
            if pngQuantizes {
                tuning.pngQuantizeColors = ImageEncodeTuning.pngPaletteSize(colors: pngQuantizationColors)
            }
            return EncodingDefaults(quality: defaultQuality, byFormat: formatQuality, tuning: tuning,
                                    pngQuantizationColors: pngQuantizationColors, autoQuality: autoQuality,
                                    unsharpMasking: unsharpMasking, bestFormat: bestFormat)
        }

        public init(presets: [String: String] = [:], defaultQuality: Int = 80,
                    formatQuality: [ImageFormat: Int] = [.webp: 79, .avif: 63, .jxl: 77],
                    coders: CodersManager = .shared) {
            self.presets = presets
            self.defaultQuality = defaultQuality
            self.formatQuality = formatQuality
            self.coders = coders
        }
    }

    /// The format and cache headers of the answers.
    public struct Responses: Sendable {
        /// How `Accept` chooses the format, per format (imgproxy's `IMGPROXY_AUTO_*` and `IMGPROXY_ENFORCE_*`).
        /// Default: WebP and AVIF when the URL names no format, JPEG XL never.
        public var negotiation: Negotiation
        /// Whether `Accept` chooses any format (then answers send `Vary: Accept`); setting false turns every
        /// format's negotiation off, for CDNs that ignore `Vary`.
        public var negotiatesFormat: Bool {
            get { negotiation.varies }
            set { if !newValue { negotiation = Negotiation(webp: .off, avif: .off, jxl: .off) } }
        }
        /// Whether negotiation may choose AVIF; false keeps it to WebP, for services that would rather not pay
        /// AVIF's encoding CPU.
        public var negotiatesAVIF: Bool {
            get { negotiation.avif != .off }
            set { negotiation.avif = newValue ? max(negotiation.avif, .preferred) : .off }
        }
        /// The formats a result is answered in when neither the URL nor negotiation names one (imgproxy's
        /// `IMGPROXY_PREFERRED_FORMATS`): a source in one of them keeps its format; any other is answered in the
        /// first that can hold the result (an animation: GIF or WebP; transparency: not JPEG). Formats the
        /// coders cannot write are left out. Default imgproxy's: JPEG, PNG, GIF.
        public var preferredFormats: [ImageFormat]
        /// `max-age` of successful answers, in seconds. Default one year (31,536,000 s), with `immutable`.
        public var cacheTTL: Int
        /// `max-age` of 5xx answers, in seconds, so a CDN retries soon. Default 10 s.
        public var errorCacheTTL: Int
        /// The status of a fallback image's answer (imgproxy's `IMGPROXY_FALLBACK_IMAGE_HTTP_CODE`); 0: the
        /// error's own. Default 200.
        public var fallbackStatus = 200
        /// `max-age` of a fallback image's answer (imgproxy's `IMGPROXY_FALLBACK_IMAGE_TTL`). Default nil:
        /// ``cacheTTL``.
        public var fallbackTTL: Int?

        public init(negotiatesFormat: Bool = true, negotiatesAVIF: Bool = true,
                    preferredFormats: [ImageFormat] = [.jpeg, .png, .gif], cacheTTL: Int = 31_536_000,
                    errorCacheTTL: Int = 10) {
            negotiation = Negotiation()
            self.preferredFormats = preferredFormats
            self.cacheTTL = cacheTTL
            self.errorCacheTTL = errorCacheTTL
            self.negotiatesFormat = negotiatesFormat
            self.negotiatesAVIF = negotiatesAVIF
        }
    }

    /// When `Accept` decides a result's format, format by format.
    public struct Negotiation: Sendable, Hashable {
        public enum Mode: Int, Sendable, Hashable, Comparable, CaseIterable {
            /// Never chosen from `Accept`.
            case off
            /// Chosen when the client lists it and the URL names no format (imgproxy's `IMGPROXY_AUTO_*`).
            case preferred
            /// Chosen when the client lists it, even over the URL's format (imgproxy's `IMGPROXY_ENFORCE_*`).
            case enforced

            public static func < (lhs: Mode, rhs: Mode) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        /// Default ``Mode/preferred`` (imgproxy's default is off: the compatibility page lists the difference).
        public var webp: Mode
        /// Default ``Mode/preferred`` (as WebP). Never for an animation, as in imgproxy.
        public var avif: Mode
        /// Default ``Mode/off``, as imgproxy. Never for an animation, as in imgproxy.
        public var jxl: Mode

        public init(webp: Mode = .preferred, avif: Mode = .preferred, jxl: Mode = .off) {
            self.webp = webp
            self.avif = avif
            self.jxl = jxl
        }

        /// Whether any answer depends on `Accept`.
        var varies: Bool { webp != .off || avif != .off || jxl != .off }
    }
}
