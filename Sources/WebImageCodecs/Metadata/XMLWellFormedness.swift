import Foundation

/// Whether bytes are one well-formed, namespace-correct XML document, checked with a streaming read before
/// `XMLDocument` sees them: swift-corelibs-foundation's `XMLDocument` traps on some malformed input (an unclosed
/// element with an undeclared prefix) instead of throwing.
final class XMLWellFormedness: XMLEventHandling {
    private var sawElement = false

    static func check(_ data: Data) -> Bool {
        let checker = XMLWellFormedness()
        return XMLEventReader.read(data, to: checker).isClean && checker.sawElement
    }

    func startElement(_ tag: XMLStartTag) {
        sawElement = true
    }

    func endElement() {}
    func characters(_ text: String) {}
}
