import Foundation
import WebImage

/// The key a result is cached and made under: the source, every option that changes the output (normalised),
/// and the format bucket — never the signature, so rotating keys keeps the cache.
enum ResultKey {
    static func make(source: String, options: ProcessingOptions, format: FormatChoice, defaultQuality: Int) -> String {
        let quality = options.quality > 0 ? options.quality : defaultQuality
        var parts = [
            "rs:\(options.resizingType.rawValue):\(options.width):\(options.height):\(options.enlarge ? 1 : 0)",
            "dpr:\(options.dpr)", "g:\(gravity(options.gravity))", "q:\(quality)", "bl:\(options.blur)",
            "sh:\(options.sharpen)", "rot:\(options.rotate)", "mb:\(options.maxBytes)", "f:\(format.keyComponent)",
        ]
        if let crop = options.crop {
            parts.append("c:\(crop.width):\(crop.height):\(crop.gravity.map(gravity) ?? "-")")
        }
        if let background = options.background {
            parts.append("bg:\(background.red):\(background.green):\(background.blue)")
        }
        if !options.cacheBuster.isEmpty { parts.append("cb:\(options.cacheBuster)") }
        return source + "|" + parts.joined(separator: "/")
    }

    private static func gravity(_ gravity: ProcessingOptions.Gravity) -> String {
        switch gravity {
        case .focusPoint(let x, let y): "fp:\(x):\(y)"
        default: String(describing: gravity)
        }
    }
}
