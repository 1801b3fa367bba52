import WebImage

/// imgproxy Pro's colour and tone options, on every frame.
extension ImageProcessor {
    /// Brightness, contrast and saturation, then monochrome and duotone: before blur and sharpening, among
    /// imgproxy's filters.
    static func adjustingTone(_ image: Image, options: ProcessingOptions) -> Image {
        guard options.adjustsTone else { return image }
        return image.with(frames: image.frames.map { frame in
            var pixels = frame.pixels
            if options.brightness != 0 { pixels = ToneAdjustment.brightness(pixels, by: options.brightness) }
            if options.contrast != 1 { pixels = ToneAdjustment.contrast(pixels, factor: options.contrast) }
            if options.saturation != 1 { pixels = ToneAdjustment.saturation(pixels, factor: options.saturation) }
            if let mono = options.monochrome {
                pixels = ToneAdjustment.monochrome(pixels, intensity: mono.intensity, color: mono.color)
            }
            if let duo = options.duotone {
                pixels = ToneAdjustment.duotone(pixels, intensity: duo.intensity, dark: duo.dark, light: duo.light)
            }
            return ImageFrame(pixels: pixels, duration: frame.duration)
        })
    }

    /// Colorize, then the gradient, over the whole result (its extended and padded canvas and background
    /// included), under the watermark.
    static func overlaying(_ image: Image, options: ProcessingOptions) -> Image {
        guard options.colorize != nil || options.gradient != nil else { return image }
        return image.with(frames: image.frames.map { frame in
            var pixels = frame.pixels
            if let colorize = options.colorize {
                pixels = ColourOverlay.colorize(pixels, opacity: colorize.opacity, color: colorize.color,
                                                keepAlpha: colorize.keepsAlpha)
            }
            if let gradient = options.gradient {
                pixels = ColourOverlay.gradient(pixels, opacity: gradient.opacity, color: gradient.color,
                                                angle: gradient.angle, start: gradient.start, stop: gradient.stop)
            }
            return ImageFrame(pixels: pixels, duration: frame.duration)
        })
    }
}
