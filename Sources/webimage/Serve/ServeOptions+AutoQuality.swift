import WebImage
import WebImageServer

extension ServeOptions {
    /// imgproxy Pro's autoquality settings, under its names and defaults.
    static let autoQuality: [ServeOption] = [
        ServeOption(name: "autoquality-method", variables: ["WEBIMAGE_AUTOQUALITY_METHOD", "IMGPROXY_AUTOQUALITY_METHOD"],
                    kind: .value("NAME"),
                    help: "How lossy still results' quality is chosen: none, size (the highest quality whose bytes fit "
                        + "the target) or dssim (the lowest whose DSSIM is within the target). Default none.",
                    field: "configuration.processing.autoQuality.method") { settings, given in
            guard let method = ImageProxyConfiguration.AutoQuality.Method(rawValue: given.text.lowercased()) else {
                throw given.failure(given.text.lowercased() == "ml"
                    ? "ml needs a neural network model, which this service does not have; dssim chooses by the same measure"
                    : "give none, size or dssim")
            }
            settings.configuration.processing.autoQuality.method = method
        },
        .decimal("autoquality-target", ["WEBIMAGE_AUTOQUALITY_TARGET", "IMGPROXY_AUTOQUALITY_TARGET"],
                 "Autoquality's target: bytes (size) or DSSIM (dssim, (1 - SSIM) / 2).",
                 field: "configuration.processing.autoQuality.target", \.configuration.processing.autoQuality.target,
                 range: 0...Double(Int32.max)),
        .number("autoquality-min", ["WEBIMAGE_AUTOQUALITY_MIN", "IMGPROXY_AUTOQUALITY_MIN"],
                "The lowest quality autoquality chooses (1-100).",
                field: "configuration.processing.autoQuality.minQuality", \.configuration.processing.autoQuality.minQuality,
                maximum: 100),
        .formatQualities("autoquality-format-min", ["WEBIMAGE_AUTOQUALITY_FORMAT_MIN", "IMGPROXY_AUTOQUALITY_FORMAT_MIN"],
                         "The lowest quality autoquality chooses for one format (repeatable). Default avif=60.",
                         field: "configuration.processing.autoQuality.formatMinQuality",
                         \.configuration.processing.autoQuality.formatMinQuality),
        .number("autoquality-max", ["WEBIMAGE_AUTOQUALITY_MAX", "IMGPROXY_AUTOQUALITY_MAX"],
                "The highest quality autoquality chooses (1-100).",
                field: "configuration.processing.autoQuality.maxQuality", \.configuration.processing.autoQuality.maxQuality,
                maximum: 100),
        .formatQualities("autoquality-format-max", ["WEBIMAGE_AUTOQUALITY_FORMAT_MAX", "IMGPROXY_AUTOQUALITY_FORMAT_MAX"],
                         "The highest quality autoquality chooses for one format (repeatable). Default avif=65.",
                         field: "configuration.processing.autoQuality.formatMaxQuality",
                         \.configuration.processing.autoQuality.formatMaxQuality),
        .decimal("autoquality-allowed-error", ["WEBIMAGE_AUTOQUALITY_ALLOWED_ERROR", "IMGPROXY_AUTOQUALITY_ALLOWED_ERROR"],
                 "How far from the target a DSSIM may be and still end the search (0-1).",
                 field: "configuration.processing.autoQuality.allowedError",
                 \.configuration.processing.autoQuality.allowedError, range: 0...1),
        .decimal("autoquality-max-resolution", ["WEBIMAGE_AUTOQUALITY_MAX_RESOLUTION", "IMGPROXY_AUTOQUALITY_MAX_RESOLUTION"],
                 "Results of more megapixels than this get the usual quality; 0: no limit.",
                 field: "configuration.processing.autoQuality.maxMegapixels",
                 \.configuration.processing.autoQuality.maxMegapixels, range: 0...1_000_000),
    ]
}
