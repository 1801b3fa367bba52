import Foundation

/// An upper bound on an element's computed font size in user units, from the `font-size` and `font` declarations
/// that may apply to it, as librsvg 2.54 computes it (`FontSize::compute`): an absolute size replaces the parent's,
/// `em`, `ex` (half an em), percentages and `larger` scale it, and with no valid declaration it is inherited.
/// Every size is taken by its magnitude, so negative values (which librsvg keeps) never make a bound smaller.
struct SVGFontSizeBound: Equatable {
    /// librsvg's initial font size (`medium`, and what the root inherits).
    static let initial = 12.0
    /// Resolution for physical units: ours is 72 (``SVGDocument/dpi``), but an SVG that an SVG embeds as an image
    /// is drawn by gdk-pixbuf's loader at librsvg's default 90; 96 bounds both.
    static let dpi = 96.0
    /// What no declaration sets: the parent's size.
    static let inherited = SVGFontSizeBound()

    /// The largest absolute size a declaration may set.
    private(set) var absolute = 0.0
    /// The largest factor a declaration may apply to the parent's size.
    private(set) var relative = 0.0
    /// Whether the parent's size may be kept: false once a declaration surely applies and is surely valid.
    private(set) var inherits = true

    /// The bound for a parent bounded by `parent`.
    func size(parent: Double) -> Double {
        var result = absolute
        if relative > 0 { result = max(result, relative * parent) }
        if inherits { result = max(result, parent) }
        return result.isNaN ? .infinity : result
    }

    /// Both declarations may apply.
    mutating func merge(_ other: SVGFontSizeBound) {
        absolute = max(absolute, other.absolute)
        relative = max(relative, other.relative)
        inherits = inherits && other.inherits
    }

    /// A `font-size` or `font` value. Every length, percentage, number and size keyword in it counts, anywhere
    /// (a `font` shorthand's weight and line height too, `calc()`'s terms, a value librsvg would refuse): more
    /// than the value can set, never less. With `applies` (a presentation attribute of an SVG element, or a
    /// `style` attribute's declaration), a value that is one size librsvg surely accepts ends inheritance.
    init(value tokens: some Collection<CSSToken>, applies: Bool) {
        var meaningful = 0
        var valid = false
        for token in tokens where token != .whitespace {
            meaningful += 1
            valid = Self.add(token, to: &self)
        }
        inherits = !(applies && meaningful == 1 && valid)
    }

    private init() {}

    /// Adds one token's size; whether it is, alone, a `font-size` librsvg accepts (and not negative or past
    /// `Float`'s range, which it refuses or which reach pango differently).
    private static func add(_ token: CSSToken, to bound: inout SVGFontSizeBound) -> Bool {
        let value: Double
        let isRelative: Bool
        switch token {
        case .number(let number):
            (value, isRelative) = (number, false)
        case .percentage(let percent):
            (value, isRelative) = (percent / 100, true)
        case .dimension(let number, let unit):
            guard let (scale, relative) = unitScale[unit.lowercased()] else { return false }
            (value, isRelative) = (number * scale, relative)
        case .ident(let name):
            guard let (size, relative, valid) = keywords[name.lowercased()] else { return false }
            bound.raise(size, relative: relative)
            return valid
        default:
            return false
        }
        bound.raise(value.isNaN ? .infinity : abs(value), relative: isRelative)
        return value >= 0 && value <= Double(Float.greatestFiniteMagnitude) / 2
    }

    private mutating func raise(_ size: Double, relative isRelative: Bool) {
        if isRelative { relative = max(relative, size) } else { absolute = max(absolute, size) }
    }

    /// librsvg's units (`length.rs`): user units per unit, and whether it scales the parent's size instead.
    private static let unitScale: [String: (Double, Bool)] = [
        "px": (1, false), "in": (dpi, false), "cm": (dpi / 2.54, false), "mm": (dpi / 25.4, false),
        "pt": (dpi / 72, false), "pc": (dpi / 6, false), "em": (1, true), "ex": (0.5, true),
    ]

    /// Keywords: size, whether it scales the parent's, whether `FontSize::parse` accepts it. The absolute ones
    /// are `12 × 1.2ⁿ / 72` inches; `initial`, `unset`, `inherit` and the `font` shorthand's system fonts
    /// (which librsvg reduces to 12 px) are counted but never end inheritance.
    private static let keywords: [String: (Double, Bool, Bool)] = {
        var table: [String: (Double, Bool, Bool)] = ["larger": (1.2, true, true), "smaller": (1 / 1.2, true, true),
                                                     "inherit": (1, true, false), "unset": (1, true, false),
                                                     "initial": (initial, false, false)]
        let sizes = ["xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large"]
        for (step, name) in sizes.enumerated() {
            table[name] = (initial * pow(1.2, Double(step - 3)) / 72 * dpi, false, true)
        }
        for name in ["caption", "icon", "menu", "message-box", "small-caption", "status-bar"] {
            table[name] = (initial, false, false)
        }
        return table
    }()
}
