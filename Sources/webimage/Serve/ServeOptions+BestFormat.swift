import WebImageServer

extension ServeOptions {
    /// imgproxy Pro's `best` format settings, under its names and defaults.
    static let bestFormat: [ServeOption] = [
        .decimal("best-format-complexity-threshold",
                 ["WEBIMAGE_BEST_FORMAT_COMPLEXITY_THRESHOLD", "IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD"],
                 "Results less busy than this (the mean luma step between neighbours, 0-255) are also tried in "
                    + "lossless formats (PNG, lossless WebP) by best.",
                 field: "configuration.processing.bestFormat.complexityThreshold",
                 \.configuration.processing.bestFormat.complexityThreshold, range: 0...255),
        .decimal("best-format-max-resolution",
                 ["WEBIMAGE_BEST_FORMAT_MAX_RESOLUTION", "IMGPROXY_BEST_FORMAT_MAX_RESOLUTION"],
                 "Results of more megapixels than this are encoded once by best, in the format that usually wins; "
                    + "0: no limit.",
                 field: "configuration.processing.bestFormat.maxMegapixels",
                 \.configuration.processing.bestFormat.maxMegapixels, range: 0...1_000_000),
        .toggle("best-format-by-default", ["WEBIMAGE_BEST_FORMAT_BY_DEFAULT", "IMGPROXY_BEST_FORMAT_BY_DEFAULT"],
                "Use best when the URL names no format. Default off.",
                field: "configuration.processing.bestFormat.byDefault", \.configuration.processing.bestFormat.byDefault),
        .toggle("best-format-allow-skips", ["WEBIMAGE_BEST_FORMAT_ALLOW_SKIPS", "IMGPROXY_BEST_FORMAT_ALLOW_SKIPS"],
                "Let best answer SVG sources as SVG and skip_processing formats unprocessed. Default off.",
                field: "configuration.processing.bestFormat.allowsSkips",
                \.configuration.processing.bestFormat.allowsSkips),
    ]
}
