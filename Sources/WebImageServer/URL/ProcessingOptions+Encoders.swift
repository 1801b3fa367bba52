import WebImage

/// imgproxy Pro's per-URL encoder settings (`jpeg_options`, `png_options`, `webp_options`, `avif_options`):
/// each argument given replaces the service's setting (``ImageProxyConfiguration/Processing/encoderTuning``) for
/// that URL; nil (the default) keeps it.
extension ProcessingOptions {
    /// `jpeg_options`: progressive, and chroma at full resolution. imgproxy's mozjpeg-only arguments (trellis
    /// quantisation, overshoot deringing, optimised scans) are accepted and have no effect, as with a libvips
    /// built on libjpeg-turbo; a quantisation table other than the standard one is refused.
    public struct JPEGOptions: Sendable, Hashable {
        public var progressive: Bool?
        /// True: 4:4:4 at every quality; false: 4:2:0 below quality 90, 4:4:4 above (libvips' rule).
        public var noSubsample: Bool?

        public init(progressive: Bool? = nil, noSubsample: Bool? = nil) {
            self.progressive = progressive
            self.noSubsample = noSubsample
        }
    }

    /// `png_options`: interlacing, and a palette of at most `quantizationColors` (2–256, read as imgproxy reads
    /// it: up to 2, 4, 16 or 256) when `quantize`.
    public struct PNGOptions: Sendable, Hashable {
        public var interlaced: Bool?
        public var quantize: Bool?
        public var quantizationColors: Int?

        public init(interlaced: Bool? = nil, quantize: Bool? = nil, quantizationColors: Int? = nil) {
            self.interlaced = interlaced
            self.quantize = quantize
            self.quantizationColors = quantizationColors
        }
    }

    /// `webp_options`: the compression, smart (sharp YUV) subsampling and libwebp's preset.
    public struct WebPOptions: Sendable, Hashable {
        public var compression: ImageEncodeTuning.WebPCompression?
        public var smartSubsample: Bool?
        public var preset: ImageEncodeTuning.WebPPreset?

        public init(compression: ImageEncodeTuning.WebPCompression? = nil, smartSubsample: Bool? = nil,
                    preset: ImageEncodeTuning.WebPPreset? = nil) {
            self.compression = compression
            self.smartSubsample = smartSubsample
            self.preset = preset
        }
    }

    /// `avif_options`: when chroma is subsampled.
    public struct AVIFOptions: Sendable, Hashable {
        public var subsample: ImageEncodeTuning.ChromaSubsampling?

        public init(subsample: ImageEncodeTuning.ChromaSubsampling? = nil) {
            self.subsample = subsample
        }
    }

    /// `tuning` with this URL's encoder settings applied; `quantizationColors` is the service's palette size,
    /// for a URL that turns quantisation on without one.
    func encoderTuning(over tuning: ImageEncodeTuning, quantizationColors: Int) -> ImageEncodeTuning {
        var tuning = tuning
        if let progressive = jpegOptions.progressive { tuning.jpegProgressive = progressive }
        if let noSubsample = jpegOptions.noSubsample { tuning.jpegSubsampling = noSubsample ? .off : .auto }
        if let interlaced = pngOptions.interlaced { tuning.pngInterlaced = interlaced }
        if let quantize = pngOptions.quantize {
            let colors = pngOptions.quantizationColors ?? quantizationColors
            tuning.pngQuantizeColors = quantize ? ImageEncodeTuning.pngPaletteSize(colors: colors) : nil
        } else if let colors = pngOptions.quantizationColors, tuning.pngQuantizeColors != nil {
            tuning.pngQuantizeColors = ImageEncodeTuning.pngPaletteSize(colors: colors)
        }
        if let compression = webpOptions.compression { tuning.webpCompression = compression }
        if let smartSubsample = webpOptions.smartSubsample { tuning.webpSmartSubsample = smartSubsample }
        if let preset = webpOptions.preset { tuning.webpPreset = preset }
        if let subsample = avifOptions.subsample { tuning.avifSubsampling = subsample }
        return tuning
    }
}
