import WebImage

/// imgproxy Pro's colour and tone options: how they are held (``ToneAdjustment`` and ``ColourOverlay`` do them).
extension ProcessingOptions {
    /// `monochrome`: the image in shades of one colour, blended with the original by `intensity`.
    public struct Monochrome: Sendable, Hashable {
        /// 0…1; 0 leaves the image as it is.
        public var intensity: Double
        /// The shade white becomes; black stays black. Default imgproxy's `b3b3b3`.
        public var color = RGBAColor(red: 0xB3, green: 0xB3, blue: 0xB3)

        public init(intensity: Double, color: RGBAColor = RGBAColor(red: 0xB3, green: 0xB3, blue: 0xB3)) {
            self.intensity = intensity
            self.color = color
        }
    }

    /// `duotone`: the image's luma mapped from `dark` to `light`, blended with the original by `intensity`.
    public struct Duotone: Sendable, Hashable {
        /// 0…1; 0 leaves the image as it is.
        public var intensity: Double
        /// Default black.
        public var dark = RGBAColor(red: 0, green: 0, blue: 0)
        /// Default white.
        public var light = RGBAColor(red: 255, green: 255, blue: 255)

        public init(intensity: Double, dark: RGBAColor = RGBAColor(red: 0, green: 0, blue: 0),
                    light: RGBAColor = RGBAColor(red: 255, green: 255, blue: 255)) {
            self.intensity = intensity
            self.dark = dark
            self.light = light
        }
    }

    /// `colorize`: a layer of one colour over the result.
    public struct Colorize: Sendable, Hashable {
        /// 0…1.
        public var opacity: Double
        /// Default black.
        public var color = RGBAColor(red: 0, green: 0, blue: 0)
        /// Keep the image's alpha (only its colours are tinted); false (the default) also tints transparent
        /// areas.
        public var keepsAlpha = false

        public init(opacity: Double, color: RGBAColor = RGBAColor(red: 0, green: 0, blue: 0), keepsAlpha: Bool = false) {
            self.opacity = opacity
            self.color = color
            self.keepsAlpha = keepsAlpha
        }
    }

    /// `gradient`: from transparent to `color` across the result.
    public struct Gradient: Sendable, Hashable {
        /// 0…1.
        public var opacity: Double
        /// Default black.
        public var color = RGBAColor(red: 0, green: 0, blue: 0)
        /// Clockwise degrees: 0 (the default, `down`) is transparent at the top, 90 (`left`) at the right.
        public var angle = 0.0
        /// Where the gradient starts and ends, 0…1 of the way along it. Default 0 and 1.
        public var start = 0.0
        public var stop = 1.0

        public init(opacity: Double, color: RGBAColor = RGBAColor(red: 0, green: 0, blue: 0), angle: Double = 0,
                    start: Double = 0, stop: Double = 1) {
            self.opacity = opacity
            self.color = color
            self.angle = angle
            self.start = start
            self.stop = stop
        }
    }

    /// Whether any tone option changes the pixels.
    var adjustsTone: Bool {
        brightness != 0 || contrast != 1 || saturation != 1 || monochrome != nil || duotone != nil
    }
}

extension ProcessingOptions {
    /// `unsharp_masking`: mode, weight and divider, each given replacing the service's.
    public struct UnsharpMaskingOverride: Sendable, Hashable {
        public var mode: ImageProxyConfiguration.UnsharpMasking.Mode?
        public var weight: Double?
        public var divider: Double?

        public init(mode: ImageProxyConfiguration.UnsharpMasking.Mode? = nil, weight: Double? = nil,
                    divider: Double? = nil) {
            self.mode = mode
            self.weight = weight
            self.divider = divider
        }

        func applied(to settings: ImageProxyConfiguration.UnsharpMasking) -> ImageProxyConfiguration.UnsharpMasking {
            var settings = settings
            if let mode { settings.mode = mode }
            if let weight { settings.weight = weight }
            if let divider { settings.divider = divider }
            return settings
        }
    }
}
