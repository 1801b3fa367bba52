import Foundation
import WebImage

/// imgproxy Pro's `style`: CSS put into an SVG source as a `<style>` element, the first child of the root `<svg>`.
/// Being first, the document's own rules of equal specificity come later and win, as in imgproxy; rules in a style
/// sheet beat presentation attributes (`fill="black"`).
///
/// The root is found as sniffing finds it (``SVGSniffing``: an `<svg` in the first 4 KB past the XML declaration,
/// processing instructions, comments and a doctype with its internal subset), so exactly what sniffs as SVG can
/// be styled; the end of its start tag is the first `>` outside a quoted attribute value, and a self-closing root
/// is opened and closed around the new element. The document is otherwise left byte for byte as it was: whatever
/// is answered as SVG still goes through ``SVGSanitizer`` afterwards, which checks this CSS like the rest (a sheet
/// with an `@import` or a `url(…)` of anything but a fragment or `data:` is dropped whole).
enum SVGStyleInjection {
    /// The most CSS taken, in UTF-8 bytes (64 KiB): far past any real style sheet for a drawing.
    static let maxCSSBytes = 64 << 10

    /// `svg` with `css` in a `<style>` element before the root's first child. 400 for CSS over
    /// ``maxCSSBytes`` or holding a character XML cannot carry; 422 when the document's root is not `<svg>`
    /// or its start tag never ends.
    static func prepending(css: String, to svg: Data) throws(ProxyError) -> Data {
        guard css.utf8.count <= maxCSSBytes else {
            throw .badRequest("style: the CSS is \(css.utf8.count) bytes, over the limit of \(maxCSSBytes)")
        }
        let element = "<style>" + (try escaped(css)) + "</style>"
        let root = svg.withUnsafeBytes { SVGSniffing.rootOffset($0) }
        guard let root, let tagEnd = endOfStartTag(svg, from: svg.startIndex + root + 4) else {
            throw .unprocessable("style: the source's root element is not a complete <svg> start tag")
        }
        var styled = svg
        if styled[tagEnd] == UInt8(ascii: "/") {
            // `<svg …/>` becomes `<svg …><style>…</style></svg>`.
            styled.replaceSubrange(tagEnd ..< tagEnd + 2, with: Data((">" + element + "</svg>").utf8))
        } else {
            styled.insert(contentsOf: Data(element.utf8), at: tagEnd + 1)
        }
        return styled
    }

    /// Where the start tag beginning before `index` ends: its `>`, or the `/` of its `/>`; nil when the bytes end
    /// first. A `>` inside a quoted attribute value does not end it.
    private static func endOfStartTag(_ bytes: Data, from index: Int) -> Int? {
        var quote: UInt8?
        var at = index
        while at < bytes.endIndex {
            let byte = bytes[at]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return at
            } else if byte == UInt8(ascii: "/"), at + 1 < bytes.endIndex, bytes[at + 1] == UInt8(ascii: ">") {
                return at
            }
            at += 1
        }
        return nil
    }

    /// The CSS as XML character data: `&`, `<` and `>` as entities (so no `]]>` or markup can close the element
    /// early), every character past ASCII as a character reference, which reads the same whatever encoding the
    /// document declares. Control characters other than tab and line ends, and U+FFFE and U+FFFF, are not XML
    /// characters at all: 400.
    private static func escaped(_ css: String) throws(ProxyError) -> String {
        var text = ""
        text.reserveCapacity(css.utf8.count)
        for scalar in css.unicodeScalars {
            switch scalar.value {
            case 0x26: text += "&amp;"
            case 0x3C: text += "&lt;"
            case 0x3E: text += "&gt;"
            case 0x09, 0x0A, 0x0D, 0x20 ..< 0x7F: text.unicodeScalars.append(scalar)
            case 0x7F ..< 0xFFFE, 0x10000...: text += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                throw .badRequest("style: the CSS holds U+\(String(repeating: "0", count: 4 - hex.count) + hex), "
                                  + "which XML cannot carry")
            }
        }
        return text
    }
}
