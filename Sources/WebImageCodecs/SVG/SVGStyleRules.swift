/// The `font-size` and `font` declarations of a document's style sheets, filed by what the last compound of their
/// selector requires (an id, a class or an element name): a rule can apply only to elements that have it. What
/// the rest of the selector asks (ancestors, attributes, pseudo-classes) is not checked: a rule is assumed to
/// apply wherever it might. A selector this cannot read, a declaration outside a rule (in `@media`, say) or one
/// the rule walk did not see applies everywhere. Names are compared without case.
struct SVGStyleRules {
    /// Why a style sheet is refused.
    enum Refusal: Error {
        /// An `@import` of a `data:` URL: a style sheet inside a URL (librsvg loads `data:` with no base file).
        case importsDataURL
    }

    private var everywhere = SVGFontSizeBound.inherited
    private var byKey: [String: SVGFontSizeBound] = [:]

    /// The declarations of one style sheet (a `style` element's text).
    mutating func add(_ tokens: [CSSToken]) throws(Refusal) {
        var seen = Set<Int>()
        for rule in SVGCSSStructure.rules(tokens) {
            if let keyword = rule.atKeyword {
                if keyword.lowercased() == "import",
                   tokens[rule.prelude].contains(where: { Self.urlText($0).map(SVGTextDataURLs.isDataURL) ?? false }) {
                    throw .importsDataURL
                }
                continue
            }
            guard let block = rule.block else { continue }
            var bound = SVGFontSizeBound.inherited
            let declarations = SVGCSSStructure.declarations(tokens, in: block)
            for declaration in declarations where Self.isFontProperty(declaration.name) {
                seen.insert(declaration.nameIndex)
                bound.merge(SVGFontSizeBound(value: tokens[declaration.value], applies: false))
            }
            guard bound != .inherited else { continue }
            for key in Self.keys(tokens, rule.prelude) {
                if let key { byKey[key, default: .inherited].merge(bound) } else { everywhere.merge(bound) }
            }
        }
        everywhere.merge(Self.unseenDeclarations(tokens, seen: seen, applies: false))
    }

    /// What the rules may set on an element with this name, ids and classes (lowercased).
    func bound(name: String, ids: [String], classes: [String]) -> SVGFontSizeBound {
        var bound = everywhere
        for key in ["<" + name] + ids.map({ "#" + $0 }) + classes.map({ "." + $0 }) {
            if let rule = byKey[key] { bound.merge(rule) }
        }
        return bound
    }

    /// A `style` attribute's declarations; on an element librsvg styles (`applies`), a valid `font-size` among
    /// them (so spelled: librsvg matches property names with their case) surely applies.
    static func declarationsBound(_ tokens: [CSSToken], applies: Bool) -> SVGFontSizeBound {
        var bound = SVGFontSizeBound.inherited
        var seen = Set<Int>()
        let declarations = SVGCSSStructure.declarations(tokens, in: 0..<tokens.count)
        for declaration in declarations where isFontProperty(declaration.name) {
            seen.insert(declaration.nameIndex)
            bound.merge(SVGFontSizeBound(value: tokens[declaration.value],
                                         applies: applies && declaration.name == "font-size"))
        }
        bound.merge(unseenDeclarations(tokens, seen: seen, applies: false))
        return bound
    }

    static func isFontProperty(_ name: String) -> Bool {
        let name = name.lowercased()
        return name == "font-size" || name == "font"
    }

    /// The text of a `url(…)` or a string: where CSS holds a URL.
    static func urlText(_ token: CSSToken) -> String? {
        switch token {
        case .url(let text), .string(let text): text
        default: nil
        }
    }

    /// Every `font-size:` or `font:` the structured walk did not read as a declaration, with what follows it up to
    /// a `;` or a bracket: the safety net for whatever the walk and cssparser might cut differently.
    private static func unseenDeclarations(_ tokens: [CSSToken], seen: Set<Int>, applies: Bool) -> SVGFontSizeBound {
        var bound = SVGFontSizeBound.inherited
        for index in tokens.indices where !seen.contains(index) {
            guard case .ident(let name) = tokens[index], isFontProperty(name) else { continue }
            var cursor = index + 1
            while cursor < tokens.count, tokens[cursor] == .whitespace { cursor += 1 }
            guard cursor < tokens.count, tokens[cursor] == .colon else { continue }
            var end = cursor + 1
            while end < tokens.count, tokens[end] != .semicolon, tokens[end] != .open("{"), tokens[end] != .close("}") {
                end = SVGCSSStructure.end(of: end, in: tokens)
            }
            bound.merge(SVGFontSizeBound(value: tokens[(cursor + 1)..<min(end, tokens.count)], applies: applies))
        }
        return bound
    }

    /// One key per selector of a list: `#id`, `.class` or `<name` from its last compound, or nil (everywhere).
    private static func keys(_ tokens: [CSSToken], _ prelude: Range<Int>) -> [String?] {
        SVGCSSStructure.split(tokens, prelude, where: { $0 == .comma }).map { key(tokens, $0) }
    }

    private static func key(_ tokens: [CSSToken], _ selector: Range<Int>) -> String? {
        var range = selector
        while let last = range.last, tokens[last] == .whitespace { range = range.dropLast() }
        // The last compound starts after the last combinator (whitespace, `>`, `+`, `~`) outside brackets.
        var start = range.lowerBound
        var cursor = range.lowerBound
        while cursor < range.upperBound {
            switch tokens[cursor] {
            case .whitespace, .delimiter(">"), .delimiter("+"), .delimiter("~"):
                start = cursor + 1
                cursor += 1
            default:
                cursor = SVGCSSStructure.end(of: cursor, in: tokens)
            }
        }
        var name: String?, id: String?, className: String?
        cursor = start
        while cursor < range.upperBound {
            switch tokens[cursor] {
            case .ident(let text) where cursor == start:
                name = text
            case .delimiter("*") where cursor == start:
                break
            case .hash(let text):
                id = id ?? text
            case .delimiter("."):
                guard cursor + 1 < range.upperBound, case .ident(let text) = tokens[cursor + 1] else { return nil }
                className = className ?? text
                cursor += 1
            case .colon:
                // A pseudo-class or pseudo-element (`:hover`, `::before`, `:not(…)`) only narrows the match.
                break
            case .ident where cursor > start && tokens[cursor - 1] == .colon:
                break
            case .function where cursor > start && tokens[cursor - 1] == .colon, .open("["):
                break
            default:
                // A namespace (`svg|text`) or anything unexpected: assume the rule applies everywhere.
                return nil
            }
            cursor = SVGCSSStructure.end(of: cursor, in: tokens)
        }
        if let id { return "#" + id.lowercased() }
        if let className { return "." + className.lowercased() }
        return name.map { "<" + $0.lowercased() }
    }
}
