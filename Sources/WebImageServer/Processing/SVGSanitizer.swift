import Foundation
import WebImageCodecs

/// An SVG answered as SVG, made safe to show in a page (imgproxy's `IMGPROXY_SANITIZE_SVG`): the document is
/// read with libxml2 (entities expanded within its amplification limits, no network, no external entity) and
/// written again without what can run code or fetch something — `script`, `foreignObject`, `iframe`, `form`,
/// `embed`, `object`, `audio`, `video` and their contents, `on…` attributes, animations that set an `href`, a
/// handler or a style, references to other documents (`href` other than `#fragment`, except a `data:` image on
/// `image` and `feImage` and, as in imgproxy, an `http(s)` link on `a`), `url(…)` of anything but a fragment or
/// `data:` in attributes and style sheets, `@import`, processing instructions (`xml-stylesheet`), comments and
/// the doctype (so no entity is declared: the ones expanded are written as text).
enum SVGSanitizer {
    /// Why a document could not be made safe.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The deepest nesting written; deeper documents are refused (no real drawing comes near it).
    static let maxDepth = 512

    static let droppedElements: Set<String> = ["script", "foreignobject", "iframe", "form", "embed", "object",
                                               "audio", "video", "handler", "listener"]
    static let animations: Set<String> = ["animate", "set", "animatemotion", "animatetransform", "animatecolor"]

    /// The sanitized document, at most `maxBytes` long (entity expansion can make it longer than the source).
    static func sanitize(_ data: Data, maxBytes: Int) throws(Failure) -> Data {
        let writer = Writer(maxBytes: maxBytes)
        let outcome = XMLEventReader.read(data, to: writer)
        if let failure = writer.failure { throw failure }
        guard outcome.isWellFormed else {
            throw Failure(description: "the SVG is not well-formed XML" + (outcome.firstError.map { ": \($0)" } ?? ""))
        }
        guard writer.sawRoot, writer.isBalanced else { throw Failure(description: "the SVG has no root element") }
        return writer.output
    }

    static func localName(_ qualified: String) -> String {
        String(qualified.split(separator: ":").last ?? Substring(qualified)).lowercased()
    }

    /// Whether an `href` on `element` points only inside this document (or, for images, at inline data).
    static func isSafeReference(_ value: String, element: String) -> Bool {
        let target = value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if target.isEmpty || target.hasPrefix("#") { return true }
        switch element {
        case "a": return target.hasPrefix("http://") || target.hasPrefix("https://")
        case "image", "feimage": return target.hasPrefix("data:image/")
        default: return false
        }
    }

    /// Whether CSS text (a `style` attribute, a presentation attribute, a `style` element) fetches nothing: no
    /// `@import`, and every `url(…)` a fragment or a `data:` URL.
    static func isSafeCSS(_ text: String) -> Bool {
        let lowered = text.lowercased().replacingOccurrences(of: "\\", with: "")
        if lowered.contains("@import") || lowered.contains("expression(") { return false }
        var rest = lowered[...]
        while let open = rest.range(of: "url(") {
            let target = rest[open.upperBound...].drop { " \t\n'\"".contains($0) }
            if !(target.hasPrefix("#") || target.hasPrefix("data:")) { return false }
            rest = rest[open.upperBound...]
        }
        return true
    }

    /// Writes the kept nodes back as XML, stopping at the first failure.
    private final class Writer: XMLEventHandling {
        let maxBytes: Int
        private(set) var output = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
        private(set) var failure: Failure?
        /// Names of the open elements written, and how deep inside a dropped element the reader is.
        private var open: [String] = []
        private var droppedDepth = 0
        /// Text of the `style` element being read: written only once whole and checked.
        private var styleText: String?
        private(set) var sawRoot = false

        init(maxBytes: Int) {
            self.maxBytes = maxBytes
        }

        var isDone: Bool { failure != nil }
        var isBalanced: Bool { open.isEmpty && droppedDepth == 0 }

        func startElement(_ tag: XMLStartTag) {
            let attributes = tag.attributes.merging(tag.namespaceDeclarations) { $1 }
                .map { (name: $0.key, value: $0.value) }.sorted { $0.name < $1.name }
            run { () throws(Failure) in try start(tag.qualifiedName, attributes: attributes) }
        }

        func endElement() {
            run { () throws(Failure) in try end() }
        }

        func characters(_ text: String) {
            run { () throws(Failure) in try self.text(text) }
        }

        private func run(_ step: () throws(Failure) -> Void) {
            do { try step() } catch { failure = error }
        }

        private func write(_ text: String) throws(Failure) {
            output.append(contentsOf: text.utf8)
            if output.count > maxBytes { throw Failure(description: "the sanitized SVG is over \(maxBytes) bytes") }
        }

        private func start(_ elementName: String, attributes: [(name: String, value: String)]) throws(Failure) {
            let name = SVGSanitizer.localName(elementName)
            if !sawRoot {
                sawRoot = true
                guard name == "svg" else { throw Failure(description: "the document's root is <\(elementName)>, not <svg>") }
            }
            if droppedDepth > 0 || SVGSanitizer.droppedElements.contains(name) || Self.isDangerousAnimation(name, attributes) {
                droppedDepth += 1
                return
            }
            guard open.count < SVGSanitizer.maxDepth else {
                throw Failure(description: "the SVG nests deeper than \(SVGSanitizer.maxDepth) elements")
            }
            var text = "<" + elementName
            for (attribute, value) in attributes where Self.keeps(attribute, value, on: name) {
                text += " " + attribute + "=\"" + Self.escaped(value, quote: true) + "\""
            }
            try write(text + ">")
            open.append(elementName)
            if name == "style" { styleText = "" }
        }

        private func end() throws(Failure) {
            if droppedDepth > 0 {
                droppedDepth -= 1
                return
            }
            if let style = styleText {
                styleText = nil
                if SVGSanitizer.isSafeCSS(style) { try write(Self.escaped(style, quote: false)) }
            }
            guard let name = open.popLast() else { return }
            try write("</" + name + ">")
        }

        private func text(_ string: String) throws(Failure) {
            guard droppedDepth == 0, !open.isEmpty else { return }
            if styleText != nil {
                styleText? += string
                if styleText?.utf8.count ?? 0 > maxBytes { throw Failure(description: "the SVG's style is over \(maxBytes) bytes") }
            } else {
                try write(Self.escaped(string, quote: false))
            }
        }

        private static func isDangerousAnimation(_ name: String, _ attributes: [(name: String, value: String)]) -> Bool {
            guard SVGSanitizer.animations.contains(name) else { return false }
            let target = SVGSanitizer.localName(attributes.first { $0.name == "attributeName" }?.value ?? "")
            return target == "href" || target.hasPrefix("on") || target == "style"
        }

        private static func keeps(_ attribute: String, _ value: String, on element: String) -> Bool {
            let name = SVGSanitizer.localName(attribute)
            if name.hasPrefix("on") { return false }
            if name == "href" || name == "src" || name == "action" || name == "formaction" {
                return SVGSanitizer.isSafeReference(value, element: element)
            }
            return SVGSanitizer.isSafeCSS(value)
        }

        static func escaped(_ text: String, quote: Bool) -> String {
            var result = ""
            result.reserveCapacity(text.utf8.count)
            for character in text {
                switch character {
                case "&": result += "&amp;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                case "\"" where quote: result += "&quot;"
                default: result.append(character)
                }
            }
            return result
        }
    }
}
