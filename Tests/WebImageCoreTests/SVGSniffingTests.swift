import Foundation
import Testing
import WebImageCore

/// ``ImageFormat/sniff(_:)``'s SVG rule: an `<svg` root after the XML prolog, within the first 4 KB.
struct SVGSniffingTests {
    static let root = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>"

    @Test(arguments: [
        root,
        "<svg>",
        "<svg\n  viewBox='0 0 1 1'></svg>",
        "\u{FEFF}" + root,
        "  \r\n\t" + root,
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n" + root,
        "<?xml version=\"1.0\"?><!-- Created with Inkscape (http://www.inkscape.org/) -->\n" + root,
        "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.css\" type=\"text/css\"?>\n" + root,
        "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n" + root,
        "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [\n  <!ENTITY ns \"http://ns.adobe.com/Extensibility/1.0/\">\n"
            + "  <!ENTITY a \"]>\">\n]>\n<!-- comment with <svg inside -->\n" + root,
        // A comment and a processing instruction in the internal subset may hold a quote or a bracket.
        "<!DOCTYPE svg [\n  <!-- it's ] --> <?pi \" ?>\n  <!ENTITY b \"b\">\n]>\n" + root,
        // Only the start counts: no closing tag (a truncated file) is still SVG.
        "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"5\" height",
    ])
    func sniffsSVG(text: String) {
        #expect(ImageFormat(sniffing: Data(text.utf8)) == .svg)
    }

    @Test(arguments: [
        "",
        "<svg",
        "<svgfoo>",
        "<html><body><svg></svg></body></html>",
        "<?xml version=\"1.0\"?><root/>\n<!-- </svg> -->",
        "hello </svg>",
        "<?xml version=\"1.0\"",
        "<!-- never closed <svg>",
        "<!DOCTYPE svg [ <!ENTITY a \"x\"> <svg>",
        "x" + root,
    ])
    func refusesOtherText(text: String) {
        #expect(ImageFormat(sniffing: Data(text.utf8)) == .undefined)
    }

    @Test func looksOnlyAtTheFirst4KB() {
        let comment = { (length: Int) in "<!--" + String(repeating: "x", count: length) + "-->" }
        // 4 + 4085 + 3 = 4092 bytes of comment: the byte after `<svg` is then the 4,097th, past the prefix.
        #expect(ImageFormat(sniffing: Data((comment(4085) + Self.root).utf8)) == .undefined)
        #expect(ImageFormat(sniffing: Data((comment(4084) + Self.root).utf8)) == .svg)
    }
}
