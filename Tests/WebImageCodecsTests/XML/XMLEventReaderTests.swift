import Foundation
import Testing
import TestSupport
@testable import WebImageCodecs

/// The XML reader the SVG text check and the XMP filter stand on: what it reports, and what it refuses to do.
struct XMLEventReaderTests {
    /// Every event as one line, in order.
    final class Recorder: XMLEventHandling {
        var events: [String] = []

        func startElement(_ tag: XMLStartTag) {
            let attributes = tag.attributes.merging(tag.namespaceDeclarations) { $1 }
            let attributeText = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            events.append("<\(tag.qualifiedName) \(tag.namespaceURI ?? "-") [\(attributeText.joined(separator: " "))]")
        }

        func endElement() { events.append(">") }
        func characters(_ text: String) { events.append("'\(text)'") }
        func processingInstruction(target: String, data: String?) { events.append("?\(target) \(data ?? "-")") }
    }

    private func read(_ text: String) -> (clean: Bool, events: [String]) {
        let recorder = Recorder()
        let outcome = XMLEventReader.read(Data(text.utf8), to: recorder)
        return (outcome.isClean, recorder.events)
    }

    @Test func reportsElementsNamespacesTextAndInstructionsInOrder() {
        let (clean, events) = read("""
            <?xml version="1.0"?><!DOCTYPE svg [<!ENTITY big "1e6">]><?xml-stylesheet href="a.css"?>\
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:x="urn:x" x:id="a" font-size="&big;">\
            <text>A&amp;&#x2029;B<![CDATA[<c>]]></text><x:note/></svg>
            """)
        #expect(clean)
        #expect(events == [
            "?xml-stylesheet href=\"a.css\"",
            "<svg http://www.w3.org/2000/svg [font-size=1e6 x:id=a xmlns=http://www.w3.org/2000/svg xmlns:x=urn:x]",
            "<text http://www.w3.org/2000/svg []", "'A'", "'&'", "'\u{2029}'", "'B'", "'<c>'", ">",
            "<x:note urn:x []", ">",
            ">",
        ])
    }

    @Test func entitiesInTextExpandAsElementsAndCharacters() {
        let (clean, events) = read("""
            <!DOCTYPE svg [<!ENTITY run "<tspan>x</tspan>">]><svg>&run;&run;</svg>
            """)
        #expect(clean)
        #expect(events == ["<svg - []", "<tspan - []", "'x'", ">", "<tspan - []", "'x'", ">", ">"])
    }

    @Test(arguments: [
        "<svg><text>unclosed</svg>",
        "<svg><p:text>undeclared prefix</p:text></svg>",
        "<svg xmlns:a=\"urn:a\" xmlns:b=\"urn:a\" a:x=\"1\" b:x=\"2\"/>",
        "<svg>&undefined;</svg>",
        "no markup at all",
    ])
    func malformedDocumentsAreNotClean(_ text: String) {
        #expect(!read(text).clean)
    }

    @Test func recoversPastAnErrorAsLibrsvgWouldNeverNeedTo() {
        let (clean, events) = read("<svg><g></svg>")
        #expect(!clean)
        #expect(events.prefix(2) == ["<svg - []", "<g - []"])
    }

    @Test func theFirstErrorIsLibxml2sMessage() {
        let outcome = XMLEventReader.read(Data("<svg><g></svg>".utf8), to: Recorder())
        #expect(!outcome.isWellFormed)
        #expect(outcome.firstError == "Opening and ending tag mismatch: g line 1 and svg")
        #expect(XMLEventReader.read(Data("<svg/>".utf8), to: Recorder()).firstError == nil)
    }

    /// A billion laughs stops at libxml2's amplification limit: bounded, reported, nothing close to a gigabyte.
    @Test func entityAmplificationStopsAtLibxml2sLimit() {
        var declarations = "<!ENTITY l0 \"laughlaughlaughlaugh\">"
        for level in 1...9 {
            declarations += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }
        let recorder = Recorder()
        let outcome = XMLEventReader.read(Data("<!DOCTYPE svg [\(declarations)]><svg>&l9;</svg>".utf8), to: recorder)
        #expect(!outcome.isClean)
        #expect(recorder.events.reduce(0) { $0 + $1.utf8.count } < 20_000_000)
    }

    /// Nothing is read from outside the document: an external entity, parameter entity or DTD expands to
    /// nothing, and the document is not clean.
    @Test func nothingIsLoadedFromOutside() throws {
        let outside = try OutsideFileDocuments()
        defer { outside.remove() }
        for document in outside.documents {
            let (clean, events) = read(document)
            #expect(!clean)
            #expect(events == ["<svg - []", "<text - []", ">", ">"], "\(document)")
        }
    }

    @Test func tooShortInputIsNotADocument() {
        #expect(read("").events.isEmpty)
        #expect(!read("<a>").clean)
    }
}
