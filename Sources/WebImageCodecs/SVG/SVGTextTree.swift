import Foundation

/// What of an SVG's XML the text check needs, read with libxml2 (``XMLEventReader``: entities expanded within
/// libxml2's limits, none loaded from outside): each element's font-size declarations, id, classes, text and
/// whether it lies in a `<text>`; the style sheets; every `data:` URL; what loads text or style the check could
/// not follow. Element and attribute names are taken without their namespace and case: more matches, never fewer.
final class SVGTextTree: XMLEventHandling {
    struct Element {
        var parent: Int?
        var name: String
        /// Every `id` and class, whatever the attribute's namespace (lowercased).
        var ids: [String]
        var classes: [String]
        /// What its presentation attributes and `style` attribute may set.
        var own: SVGFontSizeBound
        /// Whether it holds characters (its own, not its children's), and how many of them break a line.
        var hasText = false
        var lineBreaks = 0
        var insideText: Bool
        /// The ids (lowercased) a `use` or `feImage` draws with its own font size as the parent's.
        var draws: [String] = []
    }

    /// What the check refuses outright.
    enum Refusal: Error {
        /// A style sheet, XInclude or `tref` text from a `data:` URL.
        case loadsFromDataURL(String)
    }

    private(set) var elements: [Element] = []
    private(set) var styleSheets: [[CSSToken]] = []
    /// Every `data:` URL in an attribute or a style sheet.
    private(set) var dataURLs: [String] = []
    private(set) var totalLineBreaks = 0
    private(set) var refusal: Refusal?

    private var open: [Int] = []
    /// The text of the outermost open `style` element (with whatever its children hold), and that element.
    private var styleText: String?
    private var styleElement: Int?

    static let svgNamespace = "http://www.w3.org/2000/svg"

    /// Characters pango breaks a line at (librsvg drops `\n` itself).
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    static func read(_ data: Data) -> SVGTextTree {
        let tree = SVGTextTree()
        // libxml2 recovers from errors here; librsvg, which read the document first, refuses any, so on a
        // document it accepted both see the same elements.
        XMLEventReader.read(data, to: tree)
        return tree
    }

    func startElement(_ tag: XMLStartTag) {
        let name = tag.localName.lowercased(), namespaceURI = tag.namespaceURI
        let parent = open.last
        var element = Element(parent: parent, name: name, ids: [], classes: [], own: .inherited,
                              insideText: name == "text" || parent.map { elements[$0].insideText } ?? false)
        // librsvg styles SVG elements only, and makes no element of an XInclude's.
        let applies = namespaceURI == Self.svgNamespace && name != "include" && name != "fallback"
        // A size the `style` attribute surely sets overrides the presentation attributes.
        var presentation = SVGFontSizeBound.inherited, styled = SVGFontSizeBound.inherited
        for (qualified, value) in tag.attributes {
            let attribute = qualified.split(separator: ":").last.map { $0.lowercased() } ?? ""
            // librsvg reads `font-size` and `style` spelled so, in no namespace: no other ends inheritance.
            let ownAttribute = applies && (qualified == "font-size" || qualified == "style")
            var tokens: [CSSToken]?
            switch attribute {
            case "font-size", "font":
                tokens = CSSTokenizer.tokens(value)
                presentation.merge(SVGFontSizeBound(value: tokens!, applies: ownAttribute))
            case "style":
                tokens = CSSTokenizer.tokens(value)
                styled.merge(SVGStyleRules.declarationsBound(tokens!, applies: ownAttribute))
            case "id":
                element.ids.append(value.lowercased())
            case "class":
                element.classes += value.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
            case "href" where name == "use" || name == "feimage":
                // librsvg re-cascades only these two (`CascadedValues::new_from_values`). The id follows the last
                // `#` (`NodeId::parse`); the first is taken too.
                for hash in [value.firstIndex(of: "#"), value.lastIndex(of: "#")].compactMap({ $0 }) {
                    element.draws.append(value[value.index(after: hash)...].lowercased())
                }
            default:
                break
            }
            collectDataURLs(in: value, tokens: tokens, element: name)
        }
        element.own = styled
        if styled.inherits { element.own.merge(presentation) }
        elements.append(element)
        open.append(elements.count - 1)
        if name == "style", styleElement == nil {
            styleText = ""
            styleElement = elements.count - 1
        }
    }

    func endElement() {
        if let text = styleText, open.last == styleElement {
            let tokens = CSSTokenizer.tokens(text)
            styleSheets.append(tokens)
            dataURLs += tokens.compactMap(SVGStyleRules.urlText).filter(SVGTextDataURLs.isDataURL)
            styleText = nil
            styleElement = nil
        }
        if !open.isEmpty { open.removeLast() }
    }

    func processingInstruction(target: String, data: String?) {
        // librsvg reads an `xml-stylesheet` PI's pseudo-attributes with their character references resolved.
        guard target == "xml-stylesheet", let data else { return }
        if data.contains("&") || SVGTextDataURLs.normalized(data).lowercased().contains("data:") {
            refusal = refusal ?? .loadsFromDataURL("an xml-stylesheet processing instruction")
        }
    }

    func characters(_ string: String) {
        guard let index = open.last else { return }
        if styleText != nil { styleText? += string }
        let breaks = string.unicodeScalars.reduce(0) { $0 + (Self.isLineBreak($1) ? 1 : 0) }
        elements[index].hasText = true
        elements[index].lineBreaks += breaks
        totalLineBreaks += breaks
    }

    /// The `data:` URLs an attribute may hold: the whole value (an `href`) and any `url(…)` or string in it read as
    /// CSS (a presentation attribute, a `style`; CSS escapes can spell `data:`). An XInclude's or a `tref`'s is
    /// refused: it would bring text or elements in.
    private func collectDataURLs(in value: String, tokens: [CSSToken]?, element: String) {
        guard value.utf8.contains(UInt8(ascii: "\\")) || SVGTextDataURLs.mentionsDataURL(value) else { return }
        var urls = SVGTextDataURLs.isDataURL(value) ? [value] : []
        let cssURLs = (tokens ?? CSSTokenizer.tokens(value)).compactMap(SVGStyleRules.urlText)
        urls += cssURLs.filter(SVGTextDataURLs.isDataURL)
        guard !urls.isEmpty else { return }
        if element == "include" || element == "tref" {
            refusal = refusal ?? .loadsFromDataURL("<\(element)>")
        }
        dataURLs += urls
    }
}
