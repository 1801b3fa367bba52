import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// imgproxy Pro's `style`: the CSS as the root's first child, found past any prolog, checked by the sanitiser
/// afterwards, and applied by librsvg over presentation attributes.
@Suite struct SVGStyleInjectionTests {
    static func styled(_ css: String, _ svg: String) throws(ProxyError) -> String {
        String(decoding: try SVGStyleInjection.prepending(css: css, to: Data(svg.utf8)), as: UTF8.self)
    }

    @Test func goesAfterTheRootStartTagPastTheProlog() throws {
        let prolog = """
        \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
        <?xml-stylesheet href="a.css"?>
        <!-- <svg> in a comment -->
        <!DOCTYPE svg [
          <!-- it's ] > -->
          <?pi <svg> ?>
          <!ENTITY a "]> <svg>">
        ]>
        <svg xmlns="http://www.w3.org/2000/svg" data-a="x>y" data-b='/>' width="4"
        """
        let body = "><rect width=\"4\" height=\"4\"/></svg>\n"
        #expect(try Self.styled("rect { fill: red }", prolog + body)
            == prolog + "><style>rect { fill: red }</style>" + body.dropFirst())
    }

    @Test(arguments: [
        ("<svg/>", "<svg><style>a{}</style></svg>"),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2\" height=\"2\" />",
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2\" height=\"2\" ><style>a{}</style></svg>"),
        ("<svg\n>text</svg>", "<svg\n><style>a{}</style>text</svg>"),
    ])
    func selfClosingAndOtherRoots(source: String, expected: String) throws {
        #expect(try Self.styled("a{}", source) == expected)
    }

    /// Markup characters as entities (so `]]>` and `</style>` are text), past ASCII as character references.
    @Test func cssIsEscapedAsText() throws {
        let output = try Self.styled("a > b { content: \"é & ]]> </style>\u{1F600}\" }\n\tc{}", "<svg></svg>")
        #expect(output == "<svg><style>a &gt; b { content: \"&#xE9; &amp; ]]&gt; &lt;/style&gt;&#x1F600;\" }\n\tc{}</style></svg>")
        // libxml2 reads it back as the CSS given.
        let sanitized = String(decoding: try SVGSanitizer.sanitize(Data(output.utf8), maxBytes: 1 << 20), as: UTF8.self)
        #expect(sanitized.hasSuffix("<svg><style>a &gt; b { content: \"é &amp; ]]&gt; &lt;/style&gt;\u{1F600}\" }\n\tc{}</style></svg>"))
    }

    @Test(arguments: ["<html><svg></svg></html>", "<svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\"/>",
                      "<svg width=\"4", "<svg width='4>", "<!-- open <svg>", "", "svg"])
    func otherDocumentsAreUnprocessable(source: String) {
        #expect(throws: ProxyError.unprocessable("style: the source's root element is not a complete <svg> start tag")) {
            try Self.styled("a{}", source)
        }
    }

    @Test func cssIsBoundedAt64KiB() throws {
        let limit = String(repeating: "a", count: 65536)
        #expect(try Self.styled(limit, "<svg/>").count == 65536 + "<svg><style></style></svg>".count)
        #expect(throws: ProxyError.badRequest("style: the CSS is 65537 bytes, over the limit of 65536")) {
            try Self.styled(limit + "a", "<svg/>")
        }
    }

    @Test(arguments: [("\u{0}", "0000"), ("\u{1B}", "001B"), ("\u{FFFF}", "FFFF")])
    func charactersXMLCannotCarryAreRefused(character: String, code: String) {
        #expect(throws: ProxyError.badRequest("style: the CSS holds U+\(code), which XML cannot carry")) {
            try Self.styled("a{}" + character, "<svg/>")
        }
    }

    /// Injected before sanitising, the CSS is checked like the document's own: what fetches is dropped.
    @Test(arguments: ["@import url(http://127.0.0.1:9/a.css);", "@IMPORT 'http://127.0.0.1:9/a.css';",
                      "rect { fill: url(http://127.0.0.1:9/p.svg#p) }", "rect { fill: url( 'https://127.0.0.1:9/p' ) }",
                      "rect { background: u\\rl(//127.0.0.1:9/p) }"])
    func unsafeCSSIsRemovedBySanitising(css: String) throws {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><circle r=\"1\"/></svg>"
        let output = String(decoding: try SVGSanitizer.sanitize(SVGStyleInjection.prepending(css: css, to: Data(svg.utf8)),
                                                                maxBytes: 1 << 20), as: UTF8.self)
        #expect(output.hasSuffix("<svg xmlns=\"http://www.w3.org/2000/svg\"><style></style><circle r=\"1\"></circle></svg>"))
    }

    @Test func safeCSSSurvivesSanitising() throws {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><circle r=\"1\"/></svg>"
        let output = String(decoding: try SVGSanitizer.sanitize(
            SVGStyleInjection.prepending(css: "circle { fill: red }", to: Data(svg.utf8)), maxBytes: 1 << 20), as: UTF8.self)
        #expect(output.hasSuffix("<svg xmlns=\"http://www.w3.org/2000/svg\"><style>circle { fill: red }</style>"
                                 + "<circle r=\"1\"></circle></svg>"))
    }

    /// librsvg applies the style sheet over the `fill` attribute, before and after sanitising.
    @Test func librsvgDrawsWithTheInjectedStyle() throws {
        let svg = Data("""
        <?xml version="1.0"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="black"/></svg>
        """.utf8)
        let pixel = { (data: Data) in
            Array(try CodersManager.shared.decode(data, options: ImageDecodeOptions()).pixels.converted(to: .rgba8).bytes.prefix(4))
        }
        #expect(try pixel(svg) == [0, 0, 0, 255])
        let styled = try SVGStyleInjection.prepending(css: "rect { fill: #00ff00 }", to: svg)
        #expect(try pixel(styled) == [0, 255, 0, 255])
        #expect(try pixel(SVGSanitizer.sanitize(styled, maxBytes: 1 << 20)) == [0, 255, 0, 255])
    }
}
