import WebImage

/// The key a result is cached and made under: `source|format bucket|encoding defaults|options` — never the
/// signature, so rotating keys keeps the cache. The options part is each option's ``ResultKeyPart`` in
/// ``ProcessingOptionTable/all``'s order, `name:values` joined by `/`, the options at their defaults adding
/// nothing; no part holds `|`, so a source holding one is still read one way (from the right).
enum ResultKey {
    /// `encoding` is the service's default quality and per-format table, which decide a result's quality when
    /// the URL gives none, and its encoder settings, which decide the bytes whatever the URL says.
    /// Chained pipelines (imgproxy Pro's `-`) follow the first's parts, each after a `/-/`.
    static func make(source: String, options: ProcessingOptions, format: FormatChoice, encoding: EncodingDefaults,
                     chain: [ProcessingOptions] = []) -> String {
        func parts(_ options: ProcessingOptions) -> String {
            ProcessingOptionTable.all.compactMap { spec in
                spec.key?.text(options).map { spec.keyName + ":" + $0 }
            }.joined(separator: "/")
        }
        // The quality that counts is the last pipeline's, which encodes.
        let last = chain.last ?? options
        let defaults = (last.quality > 0 ? "" : encoding.qualityKeyComponent) + encoding.tuningKeyComponent
            + encoding.autoQuality.keyComponent + encoding.unsharpKeyComponent + generation
        let pipelines = ([options] + chain).map(parts).joined(separator: "/-/")
        return [source, format.keyComponent, defaults, pipelines].joined(separator: "|")
    }

    /// Changed when the same URL and settings make other pixels than results cached before, so those are not
    /// served: `;g2` since resizes default to lanczos3 (they were box-filtered).
    static let generation = ";g2"

    /// The fields of ``ProcessingOptions`` the key leaves out, and why (a test checks every other one is in it).
    static let leftOut: [String: String] = [
        "format": "the format bucket stands for it, resolved with the extension and Accept",
        "bestFormat": "the format bucket stands for it (`best` and its candidates)",
        "expires": "checked before any work; a live URL is the same image",
        "filename": "only the Content-Disposition header, written per answer",
        "returnAttachment": "only the Content-Disposition header, written per answer",
        "fallbackImageURL": "only when the source fails; a fallback answer is never cached",
    ]
}

/// What decides a result's bytes beside its URL: the quality it gets when the URL gives none, per output format
/// (imgproxy's `IMGPROXY_FORMAT_QUALITY`), else the default (`IMGPROXY_QUALITY`); and the encoders' settings.
struct EncodingDefaults: Sendable, Hashable {
    var quality: Int
    var byFormat: [ImageFormat: Int]
    var tuning = ImageEncodeTuning()
    /// The palette size a URL's `png_options` quantises to when it names none (`IMGPROXY_PNG_QUANTIZATION_COLORS`).
    var pngQuantizationColors = 256
    /// The service's autoquality settings, which a URL's `autoquality` may replace.
    var autoQuality = ImageProxyConfiguration.AutoQuality()
    /// The service's unsharp masking, which a URL's `unsharp_masking` may replace.
    var unsharpMasking = ImageProxyConfiguration.UnsharpMasking()
    /// How `best` chooses (in the key through the format bucket's name).
    var bestFormat = ImageProxyConfiguration.BestFormat()

    /// The quality of a result in `format`: the URL's, its per-format table's, the configured one's, else the default.
    func quality(for format: ImageFormat, options: ProcessingOptions) -> Int {
        if options.quality > 0 { return options.quality }
        return options.formatQuality[format] ?? byFormat[format] ?? quality
    }

    /// The encoders' settings for a result made with `options` (which may replace some per URL).
    func tuning(for options: ProcessingOptions) -> ImageEncodeTuning {
        options.encoderTuning(over: tuning, quantizationColors: pngQuantizationColors)
    }

    /// The service's unsharp masking, when it is on.
    var unsharpKeyComponent: String {
        unsharpMasking.mode == .none ? "" : ";ush\(unsharpMasking.mode.rawValue),\(unsharpMasking.weight),\(unsharpMasking.divider)"
    }

    /// The qualities, which count only for a URL that gives none.
    var qualityKeyComponent: String {
        "d\(quality)" + byFormat.map { ",\($0.key.rawValue)=\($0.value)" }.sorted().joined()
    }

    /// The encoder settings after `;` (`p` progressive JPEG, `js` its subsampling, `i` interlaced PNG, `q` its
    /// palette size and `qd` a URL's, `w` WebP method, `wp` its preset, `wc` its compression, `ws` smart
    /// subsampling, `a` AVIF speed, `as` its subsampling, `x` JPEG XL effort), for every URL: a restart with
    /// other settings makes new results.
    var tuningKeyComponent: String {
        let settings = [tuning.jpegProgressive ? "p" : nil,
                        tuning.jpegSubsampling == .auto ? nil : "js\(tuning.jpegSubsampling.rawValue)",
                        tuning.pngInterlaced ? "i" : nil, tuning.pngQuantizeColors.map { "q\($0)" },
                        pngQuantizationColors == 256 ? nil : "qd\(pngQuantizationColors)",
                        tuning.webpMethod.map { "w\($0)" }, tuning.webpPreset.map { "wp\($0.rawValue)" },
                        tuning.webpCompression.map { "wc\($0.rawValue)" }, tuning.webpSmartSubsample ? "ws" : nil,
                        tuning.avifSpeed.map { "a\($0)" },
                        tuning.avifSubsampling == .auto ? nil : "as\(tuning.avifSubsampling.rawValue)",
                        tuning.jxlEffort.map { "x\($0)" }].compactMap { $0 }
        return settings.isEmpty ? "" : ";" + settings.joined(separator: ",")
    }
}
