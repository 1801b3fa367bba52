import WebImage

extension ProcessingOptionTable {
    /// imgproxy Pro's colour and tone options. Intensities and opacities are 0…1; 0 turns the option off.
    static let tone: [ProcessingOptionSpec] = [
        // A shorthand: `brightness`, `contrast` and `saturation` own their fields in the key.
        spec(["adjust", "a"], key: nil) { arguments, options throws(ProxyError) in
            try arguments.count(1...3)
            try arguments.set(0, &options.brightness, brightness(arguments))
            try arguments.set(1, &options.contrast, factor(arguments))
            try arguments.set(2, &options.saturation, factor(arguments))
        },
        single(["brightness", "br"], \.brightness) { arguments, text throws(ProxyError) in
            try brightness(arguments)(text)
        },
        single(["contrast", "co"], \.contrast) { arguments, text throws(ProxyError) in try factor(arguments)(text) },
        single(["saturation", "sa"], \.saturation) { arguments, text throws(ProxyError) in
            try factor(arguments)(text)
        },
        spec(["unsharp_masking", "ush"], key: .fields(\.unsharpMasking)) { arguments, options throws(ProxyError) in
            try arguments.count(1...3)
            var override = ProcessingOptions.UnsharpMaskingOverride()
            try arguments.set(0, &override.mode, arguments.choice)
            let positive = { (text: Substring) throws(ProxyError) -> Double in
                let value = try arguments.number(text, in: 0...100)
                guard value > 0 else { throw .badRequest("\(arguments.name)'s weight and divider are above 0") }
                return value
            }
            try arguments.set(1, &override.weight, positive)
            try arguments.set(2, &override.divider, positive)
            options.unsharpMasking = override
        },
        spec(["monochrome", "mc"], key: .fields(\.monochrome)) { arguments, options throws(ProxyError) in
            try arguments.count(1...2)
            var monochrome = ProcessingOptions.Monochrome(intensity: try arguments.number(arguments.values[0], in: 0...1))
            try arguments.set(1, &monochrome.color, arguments.hexColor)
            options.monochrome = monochrome.intensity > 0 ? monochrome : nil
        },
        spec(["duotone", "dt"], key: .fields(\.duotone)) { arguments, options throws(ProxyError) in
            try arguments.count(1...3)
            var duotone = ProcessingOptions.Duotone(intensity: try arguments.number(arguments.values[0], in: 0...1))
            try arguments.set(1, &duotone.dark, arguments.hexColor)
            try arguments.set(2, &duotone.light, arguments.hexColor)
            options.duotone = duotone.intensity > 0 ? duotone : nil
        },
        spec(["colorize", "col"], key: .fields(\.colorize)) { arguments, options throws(ProxyError) in
            try arguments.count(1...3)
            var colorize = ProcessingOptions.Colorize(opacity: try arguments.number(arguments.values[0], in: 0...1))
            try arguments.set(1, &colorize.color, arguments.hexColor)
            try arguments.set(2, &colorize.keepsAlpha, arguments.boolean)
            options.colorize = colorize.opacity > 0 ? colorize : nil
        },
        spec(["gradient", "gr"], key: .fields(\.gradient)) { arguments, options throws(ProxyError) in
            try arguments.count(1...5)
            var gradient = ProcessingOptions.Gradient(opacity: try arguments.number(arguments.values[0], in: 0...1))
            try arguments.set(1, &gradient.color, arguments.hexColor)
            try arguments.set(2, &gradient.angle) { text throws(ProxyError) in
                if let angle = ColourOverlay.gradientAngle(named: String(text)) { return angle }
                guard let angle = Double(text), angle.isFinite, abs(angle) <= 3600 else {
                    throw .badRequest("gradient's direction is down, up, left, right or degrees (-3600 to 3600), "
                                      + "not '\(text)'")
                }
                return angle
            }
            try arguments.set(3, &gradient.start) { text throws(ProxyError) in try arguments.number(text, in: 0...1) }
            try arguments.set(4, &gradient.stop) { text throws(ProxyError) in try arguments.number(text, in: 0...1) }
            options.gradient = gradient.opacity > 0 ? gradient : nil
        },
    ]

    private static func brightness(_ arguments: OptionArguments) -> (Substring) throws(ProxyError) -> Int {
        { text throws(ProxyError) in try arguments.integer(text, in: -255...255) }
    }

    /// Contrast and saturation: 1 leaves the image as it is; above 100 no pixel changes further.
    private static func factor(_ arguments: OptionArguments) -> (Substring) throws(ProxyError) -> Double {
        { text throws(ProxyError) in try arguments.number(text, in: 0...100) }
    }
}
