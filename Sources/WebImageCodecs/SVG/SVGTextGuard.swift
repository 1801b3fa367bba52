import Foundation
import WebImageCore

/// Refuses an SVG whose text librsvg 2.54 would lay out too tall for pango: the layout's height is a 32-bit count
/// of 1/1024 user units, and past 2³¹ it wraps negative; librsvg then fails `assert!(h >= 0.0)` (text.rs, in
/// `MeasuredSpan::from_span`), a Rust panic that cannot unwind into C, so the whole process aborts (SIGABRT). A
/// span's height is its lines (pango breaks at CR, U+2028, U+2029…) times the line height of its font, in user
/// units whatever the transform: about 1.2 × the font size for the fonts here (DejaVu 1.164, pango's fallback
/// metrics 1.192), a font with taller metrics higher. So every run of text must keep its font size × lines
/// within ``maxTextExtent``, 2²¹ user units over ``maxLineHeightPerEm``.
///
/// The font sizes are bounded as librsvg computes them (``SVGFontSizeBound``), from above wherever a value or a
/// rule cannot be resolved with certainty: presentation attributes, `style` attributes, every style sheet rule
/// that may match (``SVGStyleRules``), `em`/`ex`/`%`/`larger` compounding down the tree, a `use` or `feImage`
/// drawing an element with its own font size (compounding through chains of them, ``maxCompoundingRounds``), and
/// the SVG documents its `data:` URLs may hold (an image gdk-pixbuf draws with librsvg in this process, an
/// element a reference draws), each checked the same way as if any of its elements were drawn at the largest
/// size here. What brings text or style in from a `data:` URL (an `@import`, an `xml-stylesheet`, an XInclude,
/// a `tref`) is refused: nothing real does it. The width needs no bound: pango keeps it at 0 or more.
enum SVGTextGuard {
    /// pango's layout height, 2³¹ − 1 units of 1/1024, in user units.
    static let maxLayoutHeight = Double(Int32.max) / 1024
    /// The tallest line a font is assumed to make, in ems: 1.2 for the fonts here, 8 for any font an
    /// installation may add.
    static let maxLineHeightPerEm = 8.0
    /// The largest font size × lines of a run of text: 262,144 user units.
    static let maxTextExtent = (maxLayoutHeight / maxLineHeightPerEm).rounded(.up)
    /// Line breaks in one run: pango's layout time grows with their square (10,000 take a second, 40,000 fourteen).
    static let maxLineBreaks = 1_000
    /// How many rounds of `use` inside drawn elements may raise font sizes before the check gives up.
    static let maxCompoundingRounds = 64
    /// How deep `data:` documents may hold `data:` documents, and how many bytes they may hold in all.
    static let maxNesting = 4
    static let maxNestedBytes = 64 << 20

    /// Throws ``WebImageError/badImageData(_:)`` naming the cause when the document may abort librsvg.
    static func check(_ data: Data) throws {
        var budget = maxNestedBytes
        try check(SVGZ.isGzip(data) ? try SVGZ.inflate(data) : data, context: 0, depth: 0, budget: &budget)
    }

    private static func refuse(_ reason: String) -> WebImageError {
        .badImageData(.corrupt(reason))
    }

    /// One document, every element of which may be drawn inside something sized up to `context`.
    private static func check(_ data: Data, context: Double, depth: Int, budget: inout Int) throws {
        let tree = SVGTextTree.read(data)
        if case .loadsFromDataURL(let what) = tree.refusal {
            throw refuse("the SVG loads text or style from a data: URL (\(what)), which the text check cannot follow")
        }
        guard depth > 0 || !tree.elements.isEmpty else {
            throw refuse("the SVG has no element the text check can read")
        }
        var rules = SVGStyleRules()
        do {
            for sheet in tree.styleSheets { try rules.add(sheet) }
        } catch {
            throw refuse("the SVG loads text or style from a data: URL (@import), which the text check cannot follow")
        }
        let own = tree.elements.map { element in
            var bound = element.own
            bound.merge(rules.bound(name: element.name, ids: element.ids, classes: element.classes))
            return bound
        }
        let sizes = try fontSizes(tree, own: own, context: context)
        try checkRuns(tree, sizes: sizes)
        let inner = max(context, sizes.max() ?? 0, SVGFontSizeBound.initial)
        var seen = Set<Data>()
        for url in tree.dataURLs {
            for payload in SVGTextDataURLs.payloads(url) where seen.insert(payload).inserted {
                try checkEmbedded(payload, context: inner, depth: depth, budget: &budget)
            }
        }
    }

    /// Each element's bound. A `use` or `feImage` draws the element its `href` names with its own font size as
    /// the parent's: such an element is given the largest of those sizes and its own parent's, and the walk
    /// repeats until no size grows (a chain of `use`s drawing `use`s adds one link a round).
    private static func fontSizes(_ tree: SVGTextTree, own: [SVGFontSizeBound], context: Double) throws -> [Double] {
        var drawnAt: [String: Double] = [:]
        for _ in 0...maxCompoundingRounds {
            var sizes = [Double](repeating: 0, count: own.count)
            var next: [String: Double] = [:]
            for (index, element) in tree.elements.enumerated() {
                var parent = max(element.parent.map { sizes[$0] } ?? SVGFontSizeBound.initial, context)
                for id in element.ids { if let size = drawnAt[id] { parent = max(parent, size) } }
                sizes[index] = own[index].size(parent: parent)
                for id in element.draws { next[id] = max(next[id] ?? 0, sizes[index]) }
            }
            if next.allSatisfy({ id, size in (drawnAt[id] ?? -1) >= size }) { return sizes }
            drawnAt = next
        }
        throw refuse("the SVG's font sizes compound through more than \(maxCompoundingRounds) levels of <use>")
    }

    /// Each run of text (an element's own characters in a `<text>`; a `tref`'s may be any in the document).
    private static func checkRuns(_ tree: SVGTextTree, sizes: [Double]) throws {
        for (index, element) in tree.elements.enumerated() where element.insideText {
            let isReference = element.name == "tref"
            guard element.hasText || isReference else { continue }
            let breaks = isReference ? tree.totalLineBreaks : element.lineBreaks
            guard breaks <= maxLineBreaks else {
                throw refuse("the SVG's text has \(breaks) line breaks in one run, over the \(maxLineBreaks) allowed")
            }
            let lines = breaks + 1
            guard sizes[index] * Double(lines) <= maxTextExtent else {
                throw refuse("the SVG's text is too large to lay out: a font size of up to "
                             + "\(number(sizes[index])) user units on \(lines) line\(lines == 1 ? "" : "s"), over the "
                             + "\(number(maxTextExtent)) (font size × lines) librsvg lays out without aborting")
            }
        }
    }

    /// A `data:` URL's content: what may be an XML document (gzipped or not) is checked as one of its own; a raster
    /// image cannot hold text.
    private static func checkEmbedded(_ payload: Data, context: Double, depth: Int, budget: inout Int) throws {
        let document = SVGZ.isGzip(payload) ? try SVGZ.inflate(payload) : payload
        guard mayBeXML(document) else { return }
        guard depth < maxNesting else { throw refuse("the SVG nests data: documents more than \(maxNesting) deep") }
        budget -= document.count
        guard budget >= 0 else { throw refuse("the SVG's data: documents are over \(maxNestedBytes) bytes in all") }
        try check(document, context: context, depth: depth + 1, budget: &budget)
    }

    /// Whether libxml2 may read the bytes as a document: after any byte-order mark and blanks (in any of the
    /// encodings it detects), a `<`; or EBCDIC's `<?xm`. Not a format sniff: a UTF-16 byte-order mark sniffs as JPEG.
    static func mayBeXML(_ data: Data) -> Bool {
        if data.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) { return true }
        let skipped: Set<UInt8> = [0x00, 0x09, 0x0A, 0x0D, 0x20, 0xEF, 0xBB, 0xBF, 0xFE, 0xFF]
        return data.first { !skipped.contains($0) } == UInt8(ascii: "<")
    }

    private static func number(_ value: Double) -> String {
        value.isFinite && value < 1e15 ? String(Int(value.rounded(.up))) : String(format: "%g", value)
    }
}
