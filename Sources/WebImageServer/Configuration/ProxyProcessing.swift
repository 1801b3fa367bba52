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
        /// Drop the source's metadata from results unless the URL says `strip_metadata:false` (imgproxy's
        /// `IMGPROXY_STRIP_METADATA`). Default true.
        public var stripsMetadata = true
        /// Keep the copyright when stripping metadata unless the URL says `keep_copyright:false` (imgproxy's
        /// `IMGPROXY_KEEP_COPYRIGHT`). Default true.
        public var keepsCopyright = true
        /// The coders sources are read, decoded and encoded with: their headers (``ImageHeaderReading``) decide
        /// which sources are images, and their limits apply. Default `CodersManager.shared` (every built-in
        /// coder).
        public var coders: CodersManager

        /// The options every URL starts from, before the `default` preset and its own.
        var baseOptions: ProcessingOptions {
            var options = ProcessingOptions()
            options.stripMetadata = stripsMetadata
            options.keepCopyright = keepsCopyright
            return options
        }

        /// The qualities a result gets when its URL gives none.
        var qualityDefaults: QualityDefaults { QualityDefaults(quality: defaultQuality, byFormat: formatQuality) }

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
        /// Choose AVIF, WebP or the source format from `Accept` when the URL names no format (and send
        /// `Vary: Accept`); false never looks at `Accept`, for CDNs that ignore `Vary`. Default true.
        public var negotiatesFormat: Bool
        /// The formats a result is answered in when neither the URL nor negotiation names one (imgproxy's
        /// `IMGPROXY_PREFERRED_FORMATS`): a source in one of them keeps its format; any other is answered in the
        /// first that can hold the result (an animation: GIF or WebP; transparency: not JPEG). Formats the
        /// coders cannot write are left out. Default imgproxy's: JPEG, PNG, GIF.
        public var preferredFormats: [ImageFormat]
        /// Whether negotiation may choose AVIF (before WebP) for clients that list `image/avif`; false keeps
        /// negotiation to WebP, for services that would rather not pay AVIF's encoding CPU. Default true.
        public var negotiatesAVIF: Bool
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
            self.negotiatesFormat = negotiatesFormat
            self.preferredFormats = preferredFormats
            self.negotiatesAVIF = negotiatesAVIF
            self.cacheTTL = cacheTTL
            self.errorCacheTTL = errorCacheTTL
        }
    }
}
