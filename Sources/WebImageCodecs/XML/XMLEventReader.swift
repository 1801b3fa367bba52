import CLibXML2
import Foundation

/// An element's start tag, as a streaming read reports it.
package struct XMLStartTag {
    package var localName: String
    /// The prefix it was written with, if any.
    package var prefix: String?
    package var namespaceURI: String?
    /// Its attributes by qualified name (`prefix:local`, or `local` alone); namespace declarations are not among them.
    package var attributes: [String: String]
    /// The namespaces it declares, by attribute name (`xmlns` or `xmlns:prefix`).
    package var namespaceDeclarations: [String: String]

    /// The name as written: `prefix:local` or `local`.
    package var qualifiedName: String {
        prefix.map { $0 + ":" + localName } ?? localName
    }
}

/// What a streaming read of an XML document reports, in document order.
package protocol XMLEventHandling: AnyObject {
    func startElement(_ tag: XMLStartTag)
    func endElement()
    /// Text, with entities expanded, or a CDATA section's content.
    func characters(_ text: String)
    func processingInstruction(target: String, data: String?)
    /// Whether the handler wants no more events: the read stops after the current one.
    var isDone: Bool { get }
}

extension XMLEventHandling {
    package func processingInstruction(target: String, data: String?) {}
    package var isDone: Bool { false }
}

/// Reads XML with libxml2's SAX2 parser, as librsvg does: internal entities expanded within libxml2's amplification
/// limits, nothing loaded from outside (no external DTD, entity or parameter entity, no network), errors recovered
/// from and counted, never printed. Foundation's `XMLParser` is not used: on Linux it leaks an error object for
/// every error it reports, which hostile documents make as many of as they like.
package enum XMLEventReader {
    /// How a read went.
    package struct Outcome {
        /// No well-formedness error (namespace errors aside): the document is XML.
        package var isWellFormed: Bool
        /// Well-formed with correct namespaces, nothing declared from outside, and no warning.
        package var isClean: Bool
        /// libxml2's message for the first error, if any.
        package var firstError: String?
    }

    /// libxml2's global state is made once, before any thread reads a document.
    private static let initialized: Void = xmlInitParser()

    /// The parse's handler and problem count, reached from libxml2's callbacks through the context's `_private`.
    private final class Session {
        let handler: any XMLEventHandling
        var problems = 0
        var firstError: String?

        init(handler: any XMLEventHandling) {
            self.handler = handler
        }

        /// The session of a callback's context (the parser context itself: no user data is given).
        static func of(_ context: UnsafeMutableRawPointer?) -> Session? {
            guard let raw = context?.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
            return Unmanaged<Session>.fromOpaque(raw).takeUnretainedValue()
        }

        /// Hands an event to the handler unless it is done, and stops the parser once it is.
        func deliver(_ context: UnsafeMutableRawPointer?, _ event: (any XMLEventHandling) -> Void) {
            guard !handler.isDone else { return }
            event(handler)
            if handler.isDone { xmlStopParser(context?.assumingMemoryBound(to: xmlParserCtxt.self)) }
        }
    }

    @discardableResult
    package static func read(_ data: Data, to handler: any XMLEventHandling) -> Outcome {
        _ = initialized
        let refused = Outcome(isWellFormed: false, isClean: false, firstError: "not an XML document")
        guard data.count >= 4, data.count <= Int(Int32.max) else { return refused }
        let session = Session(handler: handler)
        return data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                  let context = xmlCreateMemoryParserCtxt(base, Int32(bytes.count)) else { return refused }
            defer {
                // The default SAX2 handlers keep the document's DTD (its entity declarations) in a document.
                if let document = context.pointee.myDoc { xmlFreeDoc(document) }
                context.pointee.myDoc = nil
                xmlFreeParserCtxt(context)
            }
            context.pointee.sax.pointee = handlers()
            context.pointee._private = Unmanaged.passUnretained(session).toOpaque()
            xmlCtxtUseOptions(context, Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NOENT.rawValue
                                             | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
                                             | XML_PARSE_NOWARNING.rawValue))
            let status = withExtendedLifetime(session) { xmlParseDocument(context) }
            let wellFormed = status == 0 && context.pointee.wellFormed != 0
            return Outcome(isWellFormed: wellFormed,
                           isClean: wellFormed && context.pointee.nsWellFormed != 0 && session.problems == 0,
                           firstError: session.firstError)
        }
    }

    /// libxml2's SAX2 defaults (which keep entity declarations so references expand), with the document's
    /// content sent to the session's handler and every error or warning counted instead of printed.
    private static func handlers() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        xmlSAXVersion(&sax, 2)
        sax.error = nil
        sax.warning = nil
        sax.fatalError = nil
        sax.serror = { context, error in
            guard let session = Session.of(context) else { return }
            session.problems += 1
            if session.firstError == nil, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue {
                session.firstError = error.pointee.message.map {
                    String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines)
                }
            }
        }
        sax.startElementNs = { context, localName, prefix, uri, namespaceCount, namespaces, attributeCount, _, attributes in
            guard let localName else { return }
            var tag = XMLStartTag(localName: String(cString: localName), prefix: prefix.map { String(cString: $0) },
                                  namespaceURI: uri.map { String(cString: $0) }, attributes: [:],
                                  namespaceDeclarations: [:])
            if let namespaces {
                // Two pointers per declaration: prefix (none for the default namespace), URI.
                for index in stride(from: 0, to: Int(namespaceCount) * 2, by: 2) {
                    let name = namespaces[index].map { "xmlns:" + String(cString: $0) } ?? "xmlns"
                    tag.namespaceDeclarations[name] = namespaces[index + 1].map { String(cString: $0) } ?? ""
                }
            }
            if let attributes {
                // Five pointers per attribute: local name, prefix, URI, value, value's end.
                for index in stride(from: 0, to: Int(attributeCount) * 5, by: 5) {
                    guard let name = attributes[index] else { continue }
                    let local = String(cString: name)
                    let qualified = attributes[index + 1].map { String(cString: $0) + ":" + local } ?? local
                    var value = ""
                    if let start = attributes[index + 3], let end = attributes[index + 4], end > start {
                        value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                    }
                    tag.attributes[qualified] = value
                }
            }
            Session.of(context)?.deliver(context) { $0.startElement(tag) }
        }
        sax.endElementNs = { context, _, _, _ in
            Session.of(context)?.deliver(context) { $0.endElement() }
        }
        let characters: charactersSAXFunc = { context, text, count in
            guard let text, count > 0 else { return }
            let string = String(decoding: UnsafeBufferPointer(start: text, count: Int(count)), as: UTF8.self)
            Session.of(context)?.deliver(context) { $0.characters(string) }
        }
        sax.characters = characters
        sax.ignorableWhitespace = characters
        sax.cdataBlock = characters
        sax.processingInstruction = { context, target, data in
            guard let target else { return }
            let targetString = String(cString: target), dataString = data.map { String(cString: $0) }
            Session.of(context)?.deliver(context) { $0.processingInstruction(target: targetString, data: dataString) }
        }
        sax.comment = nil
        // Nothing is loaded from outside: no external DTD subset, and an external entity is declared as an empty
        // internal one (libxml2 would load it on its first reference, entities being expanded).
        sax.externalSubset = nil
        sax.resolveEntity = nil
        sax.entityDecl = { context, name, type, publicID, systemID, content in
            switch xmlEntityType(UInt32(type)) {
            case XML_EXTERNAL_GENERAL_PARSED_ENTITY:
                Session.of(context)?.problems += 1
                xmlSAX2EntityDecl(context, name, Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), nil, nil, nil)
            case XML_EXTERNAL_PARAMETER_ENTITY:
                Session.of(context)?.problems += 1
                xmlSAX2EntityDecl(context, name, Int32(XML_INTERNAL_PARAMETER_ENTITY.rawValue), nil, nil, nil)
            default:
                xmlSAX2EntityDecl(context, name, type, publicID, systemID, content)
            }
        }
        return sax
    }
}
