import WebImageServer

extension ServeOptions {
    /// imgproxy Pro's unsharp masking settings, under its names (its default mode is auto; ours is none, as the
    /// open-source edition draws results).
    static let unsharpMasking: [ServeOption] = [
        .choice("unsharp-masking-mode", ["WEBIMAGE_UNSHARP_MASKING_MODE", "IMGPROXY_UNSHARP_MASKING_MODE"],
                "When results are unsharp-masked: auto (made smaller, without sharpen), none or always; imgproxy "
                    + "Pro's default is auto.",
                field: "configuration.processing.unsharpMasking.mode", defaultText: "none")
        { (settings, mode: ImageProxyConfiguration.UnsharpMasking.Mode) in
            settings.configuration.processing.unsharpMasking.mode = mode
        },
        .decimal("unsharp-masking-weight", ["WEBIMAGE_UNSHARP_MASKING_WEIGHT", "IMGPROXY_UNSHARP_MASKING_WEIGHT"],
                 "How much the neighbours count in unsharp masking (above 0; larger is sharper).",
                 field: "configuration.processing.unsharpMasking.weight",
                 \.configuration.processing.unsharpMasking.weight, range: 0.0001...100),
        .decimal("unsharp-masking-divider", ["WEBIMAGE_UNSHARP_MASKING_DIVIDER", "IMGPROXY_UNSHARP_MASKING_DIVIDER"],
                 "What unsharp masking's sharpening is divided by (above 0; smaller is sharper).",
                 field: "configuration.processing.unsharpMasking.divider",
                 \.configuration.processing.unsharpMasking.divider, range: 0.0001...100),
    ]
}
