import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XMP packet filtered as imgproxy's `keep_copyright` does: only properties of the Dublin Core (`dc`: of
/// which only rights, creator, contributor and publisher), XMP Rights Management (`xmpRights`) and Creative
/// Commons (`cc`) namespaces stay, matched by namespace URI whatever prefix the packet gives them.
///
/// Hostile input: a packet over ``maxPacketSize`` or with a DTD (XMP has none; entity expansion is the attack)
/// is refused before parsing, and anything that is not well-formed XML (``XMLWellFormedness``) reads as no XMP.
enum XMPFilter {
    static let maxPacketSize = 1 << 20
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let rights = "http://ns.adobe.com/xap/1.0/rights/"
    static let creativeCommons = "http://creativecommons.org/ns#"
    private static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    private static let keptDublinCore: Set<String> = ["rights", "creator", "contributor", "publisher"]

    /// The filtered packet: a new one (in `xpacket` instructions) holding one `rdf:Description` per source
    /// description that keeps something, with the namespaces its kept properties use; nil when nothing is kept or
    /// it cannot be read. The parsed document is only read, never edited: the output is written out here.
    static func copyrightOnly(_ packet: Data) -> Data? {
        guard let document = parse(packet) else { return nil }
        let nodes = (try? document.nodes(forXPath: "//*[local-name()='Description']")) ?? []
        var descriptions: [String] = []
        for case let description as XMLElement in nodes where description.uri == rdf {
            let attributes = (description.attributes ?? []).filter(isKept)
            let children = (description.children ?? []).compactMap { $0 as? XMLElement }.filter(isKept)
            guard !attributes.isEmpty || !children.isEmpty else { continue }
            var namespaces: [String: String] = [:]
            for node in attributes + children { collectNamespaces(of: node, into: &namespaces) }
            namespaces["rdf"] = nil
            let about = description.attribute(forLocalName: "about", uri: rdf)?.stringValue ?? ""
            var text = "  <rdf:Description rdf:about=\"\(escaped(about))\""
            for (prefix, uri) in namespaces.sorted(by: { $0.key < $1.key }) {
                text += " xmlns:\(prefix)=\"\(escaped(uri))\""
            }
            for attribute in attributes {
                text += " \(attribute.name ?? "")=\"\(escaped(attribute.stringValue ?? ""))\""
            }
            text += ">\n"
            for child in children { text += "   " + child.xmlString(options: []) + "\n" }
            descriptions.append(text + "  </rdf:Description>\n")
        }
        guard !descriptions.isEmpty else { return nil }
        let text = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n <rdf:RDF xmlns:rdf=\"\(rdf)\">\n"
            + descriptions.joined() + " </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
        return Data(text.utf8)
    }

    /// The prefixes and URIs `node` and everything under it use (the `xml` prefix is predeclared). Only
    /// elements and attributes are asked: corelibs' `prefix` reads a null name on text and comment nodes.
    private static func collectNamespaces(of node: XMLNode, into namespaces: inout [String: String]) {
        guard node.kind == .element || node.kind == .attribute else { return }
        if let prefix = node.prefix, !prefix.isEmpty, prefix != "xml", let uri = node.uri { namespaces[prefix] = uri }
        if let element = node as? XMLElement {
            for attribute in element.attributes ?? [] { collectNamespaces(of: attribute, into: &namespaces) }
            for child in element.children ?? [] { collectNamespaces(of: child, into: &namespaces) }
        }
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The parsed packet; nil when it is too large, has a DTD, or is not XML.
    static func parse(_ packet: Data) -> XMLDocument? {
        guard packet.count <= maxPacketSize, packet.range(of: Data("<!DOCTYPE".utf8)) == nil,
              packet.range(of: Data("<!ENTITY".utf8)) == nil, XMLWellFormedness.check(packet) else { return nil }
        return try? XMLDocument(data: packet, options: [])
    }

    private static func isKept(_ node: XMLNode) -> Bool {
        switch node.uri {
        case dublinCore?: keptDublinCore.contains(node.localName ?? "")
        case rights?, creativeCommons?: true
        default: false
        }
    }
}
