import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Whether bytes are one well-formed, namespace-correct XML document, checked with the streaming `XMLParser`
/// before `XMLDocument` sees them: swift-corelibs-foundation's `XMLDocument` traps on some malformed input (an
/// unclosed element with an undeclared prefix) instead of throwing.
final class XMLWellFormedness: NSObject, XMLParserDelegate {
    private var failed = false
    private var sawElement = false

    static func check(_ data: Data) -> Bool {
        let parser = XMLParser(data: data)
        let checker = XMLWellFormedness()
        parser.delegate = checker
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        return parsed && parser.parserError == nil && !checker.failed && checker.sawElement
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        failed = true
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
        failed = true
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        sawElement = true
    }
}
