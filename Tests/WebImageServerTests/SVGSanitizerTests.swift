import Foundation
import Testing
import TestSupport
@testable import WebImageServer

/// What an SVG answered as SVG keeps and loses (imgproxy's sanitising, with external references removed too).
@Suite struct SVGSanitizerTests {
    static func sanitized(_ text: String, maxBytes: Int = 1 << 20) throws -> String {
        String(decoding: try SVGSanitizer.sanitize(Data(text.utf8), maxBytes: maxBytes), as: UTF8.self)
    }

    @Test func codeAndExternalReferencesAreRemoved() throws {
        let output = try Self.sanitized("""
        <?xml version="1.0"?>
        <?xml-stylesheet href="http://127.0.0.1:9/evil.css"?>
        <!-- a comment -->
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" onload="alert(1)">
          <script>alert(2)</script>
          <style>@import url(http://127.0.0.1:9/a.css); rect { fill: red }</style>
          <style>circle { fill: url(#g) }</style>
          <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
          <linearGradient id="g"><stop offset="0" stop-color="blue"/></linearGradient>
          <rect width="10" height="10" fill="url(#g)" onclick="alert(3)" style="stroke: url(http://127.0.0.1:9/x)"/>
          <use xlink:href="http://127.0.0.1:9/sprite.svg#a"/>
          <use href="#g"/>
          <image href="file:///etc/passwd"/>
          <image xlink:href="data:image/png;base64,iVBORw0KGgo="/>
          <a href="javascript:alert(4)"><text>x</text></a>
          <a href="https://example.com/">link</a>
          <set attributeName="onmouseover" to="alert(5)"/>
          <animate attributeName="href" to="javascript:alert(6)"/>
          <animate attributeName="opacity" from="0" to="1" dur="1s"/>
          <iframe src="http://127.0.0.1:9/"/>
        </svg>
        """)
        for forbidden in ["alert", "127.0.0.1", "@import", "foreignObject", "xhtml", "file:", "javascript:",
                          "<!--", "xml-stylesheet", "onload", "onclick", "iframe", "<script"] {
            #expect(!output.contains(forbidden), "\(forbidden) in \(output)")
        }
        for kept in [##"<rect fill="url(#g)" height="10" width="10">"##, ##"<use href="#g">"##,
                     #"xlink:href="data:image/png;base64,iVBORw0KGgo=""#, #"<a href="https://example.com/">link</a>"#,
                     "<style>circle { fill: url(#g) }</style>", #"attributeName="opacity""#,
                     #"xmlns:xlink="http://www.w3.org/1999/xlink""#, "<text>x</text>"] {
            #expect(output.contains(kept), "\(kept) missing from \(output)")
        }
        #expect(output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
        #expect(output.hasSuffix("</svg>"))
        // What was written reads back the same: sanitising is idempotent.
        #expect(try Self.sanitized(output) == output)
    }

    @Test func textIsEscapedAndEntitiesAreWrittenAsText() throws {
        let output = try Self.sanitized("""
        <!DOCTYPE svg [<!ENTITY who "A &amp; B">]>
        <svg xmlns="http://www.w3.org/2000/svg"><title>&who; &lt;3 "q"</title><desc><![CDATA[<b>]]></desc></svg>
        """)
        #expect(!output.contains("DOCTYPE") && !output.contains("ENTITY"))
        #expect(output.contains("<title>A &amp; B &lt;3 \"q\"</title>"))
        #expect(output.contains("<desc>&lt;b&gt;</desc>"))
    }

    @Test func bombsAndJunkAreRefused() throws {
        let laughs = """
        <?xml version="1.0"?>
        <!DOCTYPE svg [
         <!ENTITY a "lollollollollollollollollollol">
         <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
         <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
         <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
         <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
         <!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">
         <!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">
         <!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">
         <!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">
        ]>
        <svg xmlns="http://www.w3.org/2000/svg"><text>&i;</text></svg>
        """
        #expect(throws: SVGSanitizer.Failure.self) { try Self.sanitized(laughs, maxBytes: 1 << 20) }
        let deep = "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<g>", count: 10_000)
            + String(repeating: "</g>", count: 10_000) + "</svg>"
        #expect(throws: SVGSanitizer.Failure.self) { try Self.sanitized(deep) }
        #expect(throws: SVGSanitizer.Failure.self) { try Self.sanitized("<svg><rect></svg>") }
        #expect(throws: SVGSanitizer.Failure.self) { try Self.sanitized("<html><svg/></html>") }
        #expect(throws: SVGSanitizer.Failure.self) { try Self.sanitized("not xml at all") }
        #expect(throws: SVGSanitizer.Failure.self) {
            try Self.sanitized("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>" + String(repeating: "x", count: 5000)
                               + "</text></svg>", maxBytes: 1000)
        }
    }
}

/// A sanitised SVG holds nothing from the machine it was sanitised on: an external entity, parameter entity or
/// DTD naming a local file is never read into the output.
@Suite struct SVGSanitizerOutsideTests {
    @Test func localFilesAreNotReadThroughEntities() throws {
        let outside = try OutsideFileDocuments()
        defer { outside.remove() }
        for document in outside.documents {
            let output = try? SVGSanitizerTests.sanitized(document)
            #expect(output.map { !$0.contains(OutsideFileDocuments.secret) } ?? true, "\(output ?? "")")
        }
    }
}

extension SVGSanitizerOutsideTests {
    @Test func aMalformedDocumentIsRefusedWithLibxml2sReason() {
        let failure = #expect(throws: SVGSanitizer.Failure.self) { try SVGSanitizerTests.sanitized("<svg><g></svg>") }
        #expect(failure?.description
                == "the SVG is not well-formed XML: Opening and ending tag mismatch: g line 1 and svg")
    }
}
