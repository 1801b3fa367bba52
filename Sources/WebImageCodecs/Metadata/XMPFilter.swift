import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XMP packet filtered as imgproxy's `keep_copyright` does: only properties of the Dublin Core (`dc`: of
/// which only rights, creator, contributor and publisher), XMP Rights Management (`xmpRights`) and Creative
/// Commons (`cc`) namespaces stay, matched by namespace URI whatever prefix the packet gives them.
///
/// Hostile input: a packet over ``maxPacketSize`` or with a DTD (XMP has none; entity expansion is the attack)
/// is refused before parsing, and anything libxml2 cannot parse reads as no XMP.
enum XMPFilter {
    static let maxPacketSize = 1 << 20
    static let dublinCore = "http://purl.org/dc/elements/1.1/"
    static let rights = "http://ns.adobe.com/xap/1.0/rights/"
    static let creativeCommons = "http://creativecommons.org/ns#"
    private static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    private static let keptDublinCore: Set<String> = ["rights", "creator", "contributor", "publisher"]

    /// The filtered packet (wrapped in `xpacket` instructions); nil when nothing is kept or it cannot be read.
    static func copyrightOnly(_ packet: Data) -> Data? {
        guard let document = parse(packet) else { return nil }
        let descriptions = (try? document.nodes(forXPath: "//*[local-name()='Description']")) ?? []
        var keptAny = false
        for case let description as XMLElement in descriptions where description.uri == rdf {
            for attribute in description.attributes ?? [] where !isKept(attribute) {
                if let name = attribute.name, attribute.uri != rdf { description.removeAttribute(forName: name) }
            }
            for case let child as XMLElement in description.children ?? [] where !isKept(child) {
                child.detach()
            }
            description.namespaces = description.namespaces?.filter {
                [rdf, dublinCore, rights, creativeCommons].contains($0.stringValue ?? "")
            }
            let properties = (description.attributes ?? []).filter { $0.uri != rdf }.count
                + (description.children ?? []).filter { $0.kind == .element }.count
            if properties == 0 { description.detach() } else { keptAny = true }
        }
        guard keptAny, let root = document.rootElement() else { return nil }
        let text = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + root.xmlString(options: []) + "\n<?xpacket end=\"w\"?>"
        return Data(text.utf8)
    }

    /// The parsed packet; nil when it is too large, has a DTD, or is not XML.
    static func parse(_ packet: Data) -> XMLDocument? {
        guard packet.count <= maxPacketSize, packet.range(of: Data("<!DOCTYPE".utf8)) == nil,
              packet.range(of: Data("<!ENTITY".utf8)) == nil else { return nil }
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
