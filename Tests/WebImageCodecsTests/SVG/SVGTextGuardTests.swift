import Foundation
import Testing
@testable import WebImageCodecs
import WebImageCore

/// Text librsvg 2.54 would lay out taller than pango's 32-bit layout height aborts the process; ``SVGTextGuard``
/// refuses it in ``SVGDocument`` before anything draws or measures it. Every refused document here aborts
/// `webimage decode` without the check (a font size over about 1.8 million user units, or its lines × size).
@Suite struct SVGTextGuardTests {
    static func svg(_ body: String, prolog: String = "") -> Data {
        Data((prolog + "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
              + "width=\"100\" height=\"100\">\(body)</svg>").utf8)
    }

    static func tooLarge(_ size: String, lines: Int = 1) -> String {
        refusal("the SVG's text is too large to lay out: a font size of up to \(size) user units on \(lines) "
                + "line\(lines == 1 ? "" : "s"), over the 262144 (font size × lines) librsvg lays out without aborting")
    }

    static func refusal(_ reason: String) -> String {
        WebImageError.badImageData(.corrupt(reason)).description
    }

    static func dataURLRefusal(_ what: String) -> String {
        refusal("the SVG loads text or style from a data: URL (\(what)), which the text check cannot follow")
    }

    /// The check's verdict on a document: nil when it passes, else the error's text.
    static func verdict(_ data: Data) -> String? {
        do {
            try SVGTextGuard.check(data)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func theAbortingDocumentIsRefusedByDecodeAndHeader() throws {
        let data = Self.svg("<text font-size=\"1e10\" y=\"50\">A</text>")
        #expect(throws: WebImageError.self) { try SVGCoder().decode(data, options: ImageDecodeOptions()) }
        #expect(Self.verdict(data) == Self.tooLarge("10000000000"))
        // Without a size librsvg measures the drawing for the header: that lays the text out too.
        let unsized = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><text font-size=\"1e10\">A</text></svg>".utf8)
        let error = #expect(throws: WebImageError.self) { try SVGCoder().header(unsized) }
        #expect(error?.description == Self.tooLarge("10000000000"))
    }

    /// Every unit librsvg knows, at 96 DPI (more than ours, 72, or the 90 of an SVG drawn by gdk-pixbuf).
    @Test(arguments: [
        ("262144", nil), ("262145", "262145"), ("262145px", "262145"), ("2730in", nil), ("2731in", "262176"),
        ("6900cm", nil), ("7000cm", "264567"), ("70000mm", "264567"), ("196000pt", nil), ("200000pt", "266667"),
        ("16384pc", nil), ("16385pc", "262160"), ("-1e7", "10000000"), ("1e39", "1e+39"),
    ] as [(String, String?)])
    func absoluteSizes(value: String, refused: String?) {
        #expect(Self.verdict(Self.svg("<text font-size=\"\(value)\" y=\"50\">A</text>")) == refused.map { Self.tooLarge($0) })
    }

    @Test func relativeSizesCompoundThroughNesting() {
        func nested(_ size: String, levels: Int, base: String = "200") -> Data {
            Self.svg("<g font-size=\"\(base)\">" + String(repeating: "<g font-size=\"\(size)\">", count: levels)
                     + "<text y=\"50\">A</text>" + String(repeating: "</g>", count: levels) + "</g>")
        }
        #expect(Self.verdict(nested("2em", levels: 10)) == nil)
        #expect(Self.verdict(nested("2em", levels: 11)) == Self.tooLarge("409600"))
        #expect(Self.verdict(nested("200%", levels: 14)) == Self.tooLarge("3276800"))
        #expect(Self.verdict(nested("5ex", levels: 1, base: "100000")) == nil)
        #expect(Self.verdict(nested("6ex", levels: 1, base: "100000")) == Self.tooLarge("300000"))
        #expect(Self.verdict(nested("larger", levels: 5, base: "100000")) == nil)
        #expect(Self.verdict(nested("larger", levels: 10, base: "100000")) == Self.tooLarge("619174"))
        // An absolute size ends the compounding.
        #expect(Self.verdict(Self.svg("<g font-size=\"1e7\"><text font-size=\"24\" y=\"50\">A</text></g>")) == nil)
    }

    @Test func styleSheetRules() {
        #expect(Self.verdict(Self.svg("<style>text { font-size: 300000px }</style><text y=\"50\">A</text>"))
                == Self.tooLarge("300000"))
        #expect(Self.verdict(Self.svg("<style><![CDATA[text{font:bold 3e5px serif}]]></style><text y=\"50\">A</text>"))
                == Self.tooLarge("300000"))
        // Escapes spell the same property and unit.
        #expect(Self.verdict(Self.svg("<style>text{font\\-size:3e5p\\78}</style><text y=\"50\">A</text>"))
                == Self.tooLarge("300000"))
        // A class rule applies where the class is, and compounds with the tree.
        func titled(_ open: String, _ close: String) -> Data {
            Self.svg("<style>.title { font-size: 2em }</style><g font-size=\"100000\">\(open)"
                     + "<text class=\"title\" y=\"50\">A</text>\(close)</g>")
        }
        #expect(Self.verdict(titled("", "")) == nil)
        #expect(Self.verdict(titled("<g class=\"title\">", "</g>")) == Self.tooLarge("400000"))
        // A rule for an id or class no element has applies nowhere; an at-rule's, a namespaced selector's, everywhere.
        #expect(Self.verdict(Self.svg("<style>.unused, #none { font-size: 1e7px }</style><text y=\"50\">A</text>")) == nil)
        #expect(Self.verdict(Self.svg("<style>#t { font-size: 1e7px }</style><text id=\"t\" y=\"50\">A</text>"))
                == Self.tooLarge("10000000"))
        #expect(Self.verdict(Self.svg("<style>@media print { .unused { font-size: 1e7px } }</style><text y=\"50\">A</text>"))
                == Self.tooLarge("10000000"))
        #expect(Self.verdict(Self.svg("<style>svg|text { font-size: 1e7px }</style><text y=\"50\">A</text>"))
                == Self.tooLarge("10000000"))
    }

    @Test func styleAttributes() {
        #expect(Self.verdict(Self.svg("<text style=\"fill:red;font-size:300000px\" y=\"50\">A</text>"))
                == Self.tooLarge("300000"))
        #expect(Self.verdict(Self.svg("<text style=\"font: italic 3e5px/1.2 serif\" y=\"50\">A</text>"))
                == Self.tooLarge("300000"))
        // A valid size in the style attribute wins over the presentation attribute and what is inherited.
        #expect(Self.verdict(Self.svg("<g font-size=\"1e10\"><text font-size=\"1e10\" style=\"font-size:12px\" y=\"50\">A</text></g>")) == nil)
        // librsvg reads only `font-size` and `style` so spelled, in no namespace: any other ends no inheritance.
        for attribute in ["FONT-SIZE=\"12\"", "x:font-size=\"12\"", "style=\"FONT-SIZE:12px\"", "x:style=\"font-size:12px\""] {
            #expect(Self.verdict(Self.svg("<g font-size=\"1e7\"><text xmlns:x=\"urn:x\" \(attribute) y=\"50\">A</text></g>"))
                    == Self.tooLarge("10000000"), "\(attribute)")
        }
        // `!important` in a style sheet beats it, so that counts too.
        #expect(Self.verdict(Self.svg("<style>text { font-size: 1e7px !important }</style>"
                                      + "<text style=\"font-size:12px\" y=\"50\">A</text>")) == Self.tooLarge("10000000"))
    }

    @Test func tspansAndOtherRuns() {
        #expect(Self.verdict(Self.svg("<text y=\"50\">A<tspan font-size=\"300000\">B</tspan></text>")) == Self.tooLarge("300000"))
        // The text element's own run is empty: only the tspan's is laid out.
        #expect(Self.verdict(Self.svg("<text font-size=\"1e7\" y=\"50\"><tspan font-size=\"12\">B</tspan></text>")) == nil)
        #expect(Self.verdict(Self.svg("<text y=\"50\"><a><tspan font-size=\"1e7\">B</tspan></a></text>")) == Self.tooLarge("10000000"))
        // Text that is never drawn directly is still checked.
        #expect(Self.verdict(Self.svg("<defs><pattern id=\"p\"><text font-size=\"1e7\">A</text></pattern></defs>"))
                == Self.tooLarge("10000000"))
        // An entity expands in the attribute as librsvg expands it.
        #expect(Self.verdict(Self.svg("<text font-size=\"&s;\" y=\"50\">A</text>",
                                      prolog: "<!DOCTYPE svg [<!ENTITY s \"1e10\">]>")) == Self.tooLarge("10000000000"))
    }

    @Test func lineBreaksMultiplyTheHeight() {
        func text(size: Int, breaks: Int) -> Data {
            Self.svg("<text font-size=\"\(size)\" y=\"50\">" + String(repeating: "A&#x2029;", count: breaks) + "A</text>")
        }
        #expect(Self.verdict(text(size: 1000, breaks: 200)) == nil)
        #expect(Self.verdict(text(size: 1000, breaks: 300)) == Self.tooLarge("1000", lines: 301))
        #expect(Self.verdict(text(size: 12, breaks: 1001))
                == Self.refusal("the SVG's text has 1001 line breaks in one run, over the 1000 allowed"))
        #expect(Self.verdict(Self.svg("<text font-size=\"1000\" y=\"50\">" + String(repeating: "A&#13;&#x2028;", count: 150)
                                      + "</text>")) == Self.tooLarge("1000", lines: 301))
    }

    @Test func useDrawsWithItsOwnFontSize() {
        #expect(Self.verdict(Self.svg("<defs><text id=\"t\" y=\"50\">A</text></defs><use xlink:href=\"#t\" font-size=\"1e7\"/>"))
                == Self.tooLarge("10000000"))
        // Four groups each at 10em, each used by the next: 200 × 10⁴ at the end of the chain.
        let chain = "<defs><g id=\"a\" font-size=\"10em\"><text y=\"50\">A</text></g>"
            + "<g id=\"b\" font-size=\"10em\"><use href=\"#a\"/></g><g id=\"c\" font-size=\"10em\"><use href=\"#b\"/></g>"
            + "<g id=\"d\" font-size=\"10em\"><use href=\"#c\"/></g></defs><use href=\"#d\" font-size=\"200\"/>"
        #expect(Self.verdict(Self.svg(chain)) == Self.tooLarge("2000000"))
        #expect(Self.verdict(Self.svg("<defs><text id=\"t\" y=\"50\">A</text><filter id=\"f\"><feImage xlink:href=\"#t\" "
                                      + "font-size=\"1e7\"/></filter></defs><rect width=\"9\" height=\"9\" filter=\"url(#f)\"/>"))
                == Self.tooLarge("10000000"))
    }

    @Test func dataURLsAreFollowedOrRefused() {
        let inner = Self.svg("<text font-size=\"1e10\" y=\"50\">A</text>").base64EncodedString()
        #expect(Self.verdict(Self.svg("<image width=\"9\" height=\"9\" href=\"data:image/svg+xml;base64,\(inner)\"/>"))
                == Self.tooLarge("10000000000"))
        let css = "data:text/css,text%7Bfont-size:1e10px%7D"
        #expect(Self.verdict(Self.svg("<style>@import url(\"\(css)\");</style><text y=\"50\">A</text>"))
                == Self.dataURLRefusal("@import"))
        #expect(Self.verdict(Self.svg("<text y=\"50\">A</text>", prolog: "<?xml-stylesheet type=\"text/css\" href=\"\(css)\"?>"))
                == Self.dataURLRefusal("an xml-stylesheet processing instruction"))
        #expect(Self.verdict(Self.svg("<text y=\"50\"><xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" "
                                      + "href=\"data:text/plain,A\" parse=\"text\"/></text>"))
                == Self.dataURLRefusal("<include>"))
    }

    @Test func ordinaryTextStillRenders() throws {
        let data = Self.svg("<style>.label { font-size: 1.5em }</style><g font-size=\"16\">"
                            + "<text class=\"label\" x=\"10\" y=\"60\">Hello<tspan dy=\"20\">world</tspan></text></g>")
        let image = try SVGCoder().decode(data, options: ImageDecodeOptions())
        #expect(image.pixelSize == PixelSize(width: 100, height: 100))
        let pixels = image.frames[0].pixels
        let alphas = stride(from: 3, to: pixels.bytes.count, by: 4).map { pixels.bytes[$0] }
        #expect(alphas.first == 0)
        #expect(alphas.contains(255))
    }
}
