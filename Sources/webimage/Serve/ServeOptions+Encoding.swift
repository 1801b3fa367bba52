import WebImage

extension ServeOptions {
    /// The encoders' settings for every result, under imgproxy's names (its ranges and defaults). The service's
    /// configuration sets every number (`webpMethod`, `avifSpeed`, `jxlEffort`), so their options write through it.
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
        .number("webp-effort", ["WEBIMAGE_WEBP_EFFORT", "IMGPROXY_WEBP_EFFORT"],
                "libwebp's method for WebP results, 1 (fastest) to 6 (smallest).",
                field: "configuration.processing.encoderTuning.webpMethod",
                \.configuration.processing.encoderTuning.webpMethod!, maximum: 6),
        ServeOption(name: "webp-preset", variables: ["WEBIMAGE_WEBP_PRESET", "IMGPROXY_WEBP_PRESET"],
                    kind: .value("PRESET"), help: "libwebp's preset for WebP results: \(webpPresets). Default default.",
                    field: "configuration.processing.encoderTuning.webpPreset") { settings, given in
            guard let preset = ImageEncodeTuning.WebPPreset(rawValue: given.text.lowercased()) else {
                throw given.failure("give one of \(webpPresets)")
            }
            settings.configuration.processing.encoderTuning.webpPreset = preset
        },
        .number("avif-speed", ["WEBIMAGE_AVIF_SPEED", "IMGPROXY_AVIF_SPEED"],
                "libavif's speed for AVIF results, 0 (slowest, smallest) to 10 (fastest; imgproxy's default is 8).",
                field: "configuration.processing.encoderTuning.avifSpeed",
                \.configuration.processing.encoderTuning.avifSpeed!, minimum: 0, maximum: 10),
        .number("jxl-effort", ["WEBIMAGE_JXL_EFFORT", "IMGPROXY_JXL_EFFORT"],
                "libjxl's effort for JPEG XL results, 1 (fastest) to 9 (smallest).",
                field: "configuration.processing.encoderTuning.jxlEffort",
                \.configuration.processing.encoderTuning.jxlEffort!, maximum: 9),
    ]

    private static let webpPresets = ImageEncodeTuning.WebPPreset.allCases.map(\.rawValue).joined(separator: ", ")
}
