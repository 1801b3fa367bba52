import Foundation
import WebImage

/// The six swatches Android's Palette names (vibrant, light vibrant, dark vibrant, muted, light muted, dark
/// muted), as node-vibrant computes them: pixels with alpha of 125 or more and not near white, quantised by
/// modified median cut (5 bits a channel, 64 colours, the first 75% of the boxes split by population, the rest
/// by population × volume), each swatch the best weighted match of saturation, luma and population in its
/// ranges; with `buildMissing`, the ones not found made from the others as node-vibrant's
/// `generateEmptySwatches` does.
enum DominantColors {
    /// The image is fitted into this square first.
    static let maxSide = 200

    static func swatches(_ pixels: PixelBuffer, buildMissing: Bool) -> [String: RGBValue] {
        let colors = MedianCut.quantise(InfoRaster.fitted(pixels, into: maxSide), colors: 64)
        guard !colors.isEmpty else { return [:] }
        let maxPopulation = Double(colors.map(\.population).max() ?? 1)
        var chosen: [Target: Swatch] = [:]
        var used: Set<Int> = []
        for target in Target.allCases {
            var best: (index: Int, value: Double)?
            for (index, swatch) in colors.enumerated() where !used.contains(index) {
                let (_, s, l) = swatch.hsl
                guard target.saturation.range.contains(s), target.luma.range.contains(l) else { continue }
                let value = (3 * (1 - abs(s - target.saturation.target)) + 6.5 * (1 - abs(l - target.luma.target))
                             + 0.5 * Double(swatch.population) / maxPopulation) / 10
                if best == nil || value > best!.value { best = (index, value) }
            }
            if let best {
                chosen[target] = colors[best.index]
                used.insert(best.index)
            }
        }
        if buildMissing { buildMissingSwatches(&chosen) }
        return Dictionary(uniqueKeysWithValues: chosen.map { ($0.key.rawValue, $0.value.rgbValue) })
    }

    /// node-vibrant's rules, its quirks kept (a light muted swatch becomes the dark vibrant one; muted swatches
    /// get the muted saturation target as their lightness).
    private static func buildMissingSwatches(_ chosen: inout [Target: Swatch]) {
        func from(_ source: Target, lightness: Double) -> Swatch? {
            chosen[source].map { Swatch(hsl: ($0.hsl.h, $0.hsl.s, lightness)) }
        }
        if chosen[.vibrant] == nil, chosen[.darkVibrant] == nil, chosen[.lightVibrant] == nil {
            if let made = from(.darkMuted, lightness: 0.26) { chosen[.darkVibrant] = made }
            if let made = from(.lightMuted, lightness: 0.26) { chosen[.darkVibrant] = made }
        }
        if chosen[.vibrant] == nil {
            chosen[.vibrant] = from(.darkVibrant, lightness: 0.5) ?? from(.lightVibrant, lightness: 0.5)
        }
        if chosen[.darkVibrant] == nil { chosen[.darkVibrant] = from(.vibrant, lightness: 0.26) }
        if chosen[.lightVibrant] == nil { chosen[.lightVibrant] = from(.vibrant, lightness: 0.74) }
        if chosen[.muted] == nil { chosen[.muted] = from(.vibrant, lightness: 0.3) }
        if chosen[.darkMuted] == nil { chosen[.darkMuted] = from(.darkVibrant, lightness: 0.3) }
        if chosen[.lightMuted] == nil { chosen[.lightMuted] = from(.lightVibrant, lightness: 0.3) }
    }

    /// The swatches in the order node-vibrant finds them, with their luma and saturation targets and ranges.
    enum Target: String, CaseIterable {
        case vibrant, lightVibrant = "light_vibrant", darkVibrant = "dark_vibrant", muted, lightMuted = "light_muted"
        case darkMuted = "dark_muted"

        var luma: (target: Double, range: ClosedRange<Double>) {
            switch self {
            case .vibrant, .muted: (0.5, 0.3...0.7)
            case .lightVibrant, .lightMuted: (0.74, 0.55...1)
            case .darkVibrant, .darkMuted: (0.26, 0...0.45)
            }
        }

        var saturation: (target: Double, range: ClosedRange<Double>) {
            switch self {
            case .vibrant, .lightVibrant, .darkVibrant: (1, 0.35...1)
            case .muted, .lightMuted, .darkMuted: (0.3, 0...0.4)
            }
        }
    }

    struct Swatch {
        var rgb: (r: Double, g: Double, b: Double)
        var population: Int

        init(rgb: (r: Double, g: Double, b: Double), population: Int) {
            self.rgb = rgb
            self.population = population
        }

        /// A made swatch (population 0) from hue, saturation and lightness, each 0…1.
        init(hsl: (h: Double, s: Double, l: Double)) {
            func channel(_ p: Double, _ q: Double, _ t: Double) -> Double {
                let t = t < 0 ? t + 1 : t > 1 ? t - 1 : t
                if t < 1.0 / 6 { return p + (q - p) * 6 * t }
                if t < 1.0 / 2 { return q }
                if t < 2.0 / 3 { return p + (q - p) * (2.0 / 3 - t) * 6 }
                return p
            }
            let (h, s, l) = hsl
            if s == 0 {
                rgb = (l * 255, l * 255, l * 255)
            } else {
                let q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q
                rgb = (channel(p, q, h + 1.0 / 3) * 255, channel(p, q, h) * 255, channel(p, q, h - 1.0 / 3) * 255)
            }
            population = 0
        }

        var hsl: (h: Double, s: Double, l: Double) {
            let r = rgb.r / 255, g = rgb.g / 255, b = rgb.b / 255
            let high = max(r, g, b), low = min(r, g, b), l = (high + low) / 2
            guard high != low else { return (0, 0, l) }
            let d = high - low
            let s = l > 0.5 ? d / (2 - high - low) : d / (high + low)
            let h: Double = high == r ? (g - b) / d + (g < b ? 6 : 0) : high == g ? (b - r) / d + 2 : (r - g) / d + 4
            return (h / 6, s, l)
        }

        var rgbValue: RGBValue {
            RGBValue(r: Int(rgb.r.rounded()), g: Int(rgb.g.rounded()), b: Int(rgb.b.rounded()))
        }
    }
}
