import WebImage

extension ServeOptions {
    /// The encoders' settings for every result, under imgproxy's names (its ranges and defaults). The service's
    /// configuration sets every number (`webpMethod`, `avifSpeed`, `jxlEffort`), so their options write through it.
    static let encoding: [ServeOption] = [
        .toggle("jpeg-progressive", ["WEBIMAGE_JPEG_PROGRESSIVE", "IMGPROXY_JPEG_PROGRESSIVE"],
                "Write JPEG results progressive (they arrive blurred, then sharpen). Default off: baseline.",
                field: "configuration.processing.encoderTuning.jpegProgressive",
                \.configuration.processing.encoderTuning.jpegProgressive),
        ServeOption(name: "jpeg-no-subsample", variables: ["WEBIMAGE_JPEG_NO_SUBSAMPLE", "IMGPROXY_JPEG_NO_SUBSAMPLE"],
                    kind: .toggle, help: "Store JPEG results' chroma at full resolution (4:4:4) at every quality. "
                        + "Default off: 4:2:0 below quality 90, as libvips.",
                    field: "configuration.processing.encoderTuning.jpegSubsampling") { settings, given in
            if given.text == "true" { settings.configuration.processing.encoderTuning.jpegSubsampling = .off }
        },
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
        .choice("webp-preset", ["WEBIMAGE_WEBP_PRESET", "IMGPROXY_WEBP_PRESET"], "libwebp's preset for WebP results.",
                field: "configuration.processing.encoderTuning.webpPreset", defaultText: "default")
        { (settings, preset: ImageEncodeTuning.WebPPreset) in settings.configuration.processing.encoderTuning.webpPreset = preset },
        .choice("webp-compression", ["WEBIMAGE_WEBP_COMPRESSION", "IMGPROXY_WEBP_COMPRESSION"],
                "WebP results' compression: near_lossless and lossless use the quality as their effort, "
                    + "near_lossless as its preprocessing level too.",
                field: "configuration.processing.encoderTuning.webpCompression", defaultText: "lossy")
        { (settings, compression: ImageEncodeTuning.WebPCompression) in
            settings.configuration.processing.encoderTuning.webpCompression = compression
        },
        .toggle("webp-smart-subsample", ["WEBIMAGE_WEBP_SMART_SUBSAMPLE", "IMGPROXY_WEBP_SMART_SUBSAMPLE"],
                "Convert lossy WebP results' colour with libwebp's sharp YUV (crisper colour edges, slower). "
                    + "Default off.",
                field: "configuration.processing.encoderTuning.webpSmartSubsample",
                \.configuration.processing.encoderTuning.webpSmartSubsample),
        .number("avif-speed", ["WEBIMAGE_AVIF_SPEED", "IMGPROXY_AVIF_SPEED"],
                "libavif's speed for AVIF results, 0 (slowest, smallest) to 10 (fastest; imgproxy's default is 8).",
                field: "configuration.processing.encoderTuning.avifSpeed",
                \.configuration.processing.encoderTuning.avifSpeed!, minimum: 0, maximum: 10),
        .choice("avif-subsample", ["WEBIMAGE_AVIF_SUBSAMPLE", "IMGPROXY_AVIF_SUBSAMPLE"],
                "When lossy AVIF results store chroma at half resolution: auto below quality 90, on always, off never.",
                field: "configuration.processing.encoderTuning.avifSubsampling", defaultText: "auto")
        { (settings, mode: ImageEncodeTuning.ChromaSubsampling) in
            settings.configuration.processing.encoderTuning.avifSubsampling = mode
        },
        .number("jxl-effort", ["WEBIMAGE_JXL_EFFORT", "IMGPROXY_JXL_EFFORT"],
                "libjxl's effort for JPEG XL results, 1 (fastest) to 9 (smallest).",
                field: "configuration.processing.encoderTuning.jxlEffort",
                \.configuration.processing.encoderTuning.jxlEffort!, maximum: 9),
    ]
}
