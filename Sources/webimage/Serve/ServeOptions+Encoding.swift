import WebImage

extension ServeOptions {
    /// The encoders' settings for every result, under imgproxy's names (its ranges and defaults).
    static let encoding: [ServeOption] = [
        .toggle("jpeg-progressive", ["WEBIMAGE_JPEG_PROGRESSIVE", "IMGPROXY_JPEG_PROGRESSIVE"],
                "Write JPEG results progressive (they arrive blurred, then sharpen). Default off: baseline.",
                field: "configuration.processing.encoderTuning.jpegProgressive",
                \.configuration.processing.encoderTuning.jpegProgressive),
        .toggle("png-interlaced", ["WEBIMAGE_PNG_INTERLACED", "IMGPROXY_PNG_INTERLACED"],
                "Write PNG results interlaced (Adam7). Default off.",
                field: "configuration.processing.encoderTuning.pngInterlaced",
                \.configuration.processing.encoderTuning.pngInterlaced),
        .toggle("png-quantize", ["WEBIMAGE_PNG_QUANTIZE", "IMGPROXY_PNG_QUANTIZE"],
                "Write PNG results with a palette chosen and dithered by libimagequant (far smaller, slightly "
                    + "lossy). Default off.",
                field: "configuration.processing.pngQuantizes", \.configuration.processing.pngQuantizes),
        .number("png-quantization-colors", ["WEBIMAGE_PNG_QUANTIZATION_COLORS", "IMGPROXY_PNG_QUANTIZATION_COLORS"],
                "How many colours a --png-quantize palette may hold (2-256), read as imgproxy does: up to 2, 4, 16 "
                    + "or 256, the palette's bit depth.",
                field: "configuration.processing.pngQuantizationColors", \.configuration.processing.pngQuantizationColors,
                minimum: 2, maximum: 256),
        level("webp-effort", ["WEBIMAGE_WEBP_EFFORT", "IMGPROXY_WEBP_EFFORT"],
              "libwebp's method for WebP results, 1 (fastest) to 6 (smallest).", range: 1...6,
              field: "configuration.processing.encoderTuning.webpMethod", \.webpMethod),
        ServeOption(name: "webp-preset", variables: ["WEBIMAGE_WEBP_PRESET", "IMGPROXY_WEBP_PRESET"],
                    kind: .value("PRESET"),
                    help: "libwebp's preset for WebP results: "
                        + ImageEncodeTuning.WebPPreset.allCases.map(\.rawValue).joined(separator: ", ") + ". Default default.",
                    field: "configuration.processing.encoderTuning.webpPreset") { settings, given in
            guard let preset = ImageEncodeTuning.WebPPreset(rawValue: given.text.lowercased()) else {
                throw given.failure("give one of " + ImageEncodeTuning.WebPPreset.allCases.map(\.rawValue).joined(separator: ", "))
            }
            settings.configuration.processing.encoderTuning.webpPreset = preset
        },
        level("avif-speed", ["WEBIMAGE_AVIF_SPEED", "IMGPROXY_AVIF_SPEED"],
              "libavif's speed for AVIF results, 0 (slowest, smallest) to 10 (fastest; imgproxy's default is 8).",
              range: 0...10,
              field: "configuration.processing.encoderTuning.avifSpeed", \.avifSpeed),
        level("jxl-effort", ["WEBIMAGE_JXL_EFFORT", "IMGPROXY_JXL_EFFORT"],
              "libjxl's effort for JPEG XL results, 1 (fastest) to 9 (smallest).", range: 1...9,
              field: "configuration.processing.encoderTuning.jxlEffort", \.jxlEffort),
    ]

    /// A whole number in `range` setting one of the encoder settings.
    private static func level(_ name: String, _ variables: [String], _ help: String, range: ClosedRange<Int>,
                              field: String, _ keyPath: WritableKeyPath<ImageEncodeTuning, Int?> & Sendable) -> ServeOption {
        let shown = ServeSettings.defaults.configuration.processing.encoderTuning[keyPath: keyPath].map(String.init) ?? "none"
        return ServeOption(name: name, variables: variables, kind: .value("N"), help: help + " Default \(shown).",
                           field: field) { settings, given in
            let level = try ServeOption.wholeNumber(given, minimum: range.lowerBound, maximum: range.upperBound)
            settings.configuration.processing.encoderTuning[keyPath: keyPath] = level
        }
    }
}
