import Foundation
import WebImageCodecs

/// A source's XMP packet as `/info` gives it: `{prefix: {property: value}}` from its `rdf:Description`s —
/// attributes and simple elements as text, `rdf:Seq` and `rdf:Bag` as lists, `rdf:Alt` as its first (default)
/// item; a structure's fields under their own prefixes. Read with ``XMLEventReader`` (nothing outside the
/// packet is loaded), bounded in bytes and properties.
enum InfoXMP {
    static let maxBytes = 1 << 20
    static let maxProperties = 1_000
    static let maxItems = 1_000

    static func properties(_ packet: Data) -> [String: [String: InfoValue]] {
        guard !packet.isEmpty, packet.count <= maxBytes else { return [:] }
        let collector = Collector()
        _ = XMLEventReader.read(packet, to: collector)
        return collector.found
    }

    private final class Collector: XMLEventHandling {
        enum Frame {
            case description
            case property(prefix: String, name: String, text: String, items: [String], container: String?)
            case container
            case item(String)
            case other
        }

        var frames: [Frame] = []
        var found: [String: [String: InfoValue]] = [:]
        var count = 0
        var isDone: Bool { count >= InfoXMP.maxProperties }

        func startElement(_ tag: XMLStartTag) {
            let isRDF = tag.prefix == "rdf"
            switch frames.last {
            case _ where isRDF && tag.localName == "Description":
                frames.append(.description)
                for (name, value) in tag.attributes {
                    let parts = name.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, !["rdf", "xml", "xmlns"].contains(parts[0]) else { continue }
                    emit(String(parts[0]), String(parts[1]), .text(InfoText.clean(value.utf8)))
                }
            case .description? where !isRDF:
                frames.append(.property(prefix: tag.prefix ?? "", name: tag.localName,
                                        text: tag.attributes["rdf:resource"] ?? "", items: [], container: nil))
            case .property(let prefix, let name, let text, let items, _)? where isRDF && ["Seq", "Bag", "Alt"].contains(tag.localName):
                frames[frames.count - 1] = .property(prefix: prefix, name: name, text: text, items: items, container: tag.localName)
                frames.append(.container)
            case .container? where isRDF && tag.localName == "li":
                frames.append(.item(""))
            default:
                frames.append(.other)
            }
        }

        func endElement() {
            guard let frame = frames.popLast() else { return }
            switch frame {
            case .item(let text):
                guard case .property(let prefix, let name, let own, var items, let container)? = frames.dropLast().last,
                      items.count < InfoXMP.maxItems else { return }
                items.append(InfoText.clean(text.utf8))
                frames[frames.count - 2] = .property(prefix: prefix, name: name, text: own, items: items, container: container)
            case .property(let prefix, let name, let text, let items, let container):
                if let container {
                    emit(prefix, name, container == "Alt" ? .text(items.first ?? "") : .list(items))
                } else if !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    emit(prefix, name, .text(InfoText.clean(text.utf8)))
                }
            default:
                break
            }
        }

        func characters(_ text: String) {
            switch frames.last {
            case .item(let own)?:
                if own.utf8.count < InfoText.maxBytes { frames[frames.count - 1] = .item(own + text) }
            case .property(let prefix, let name, let own, let items, let container)? where container == nil:
                if own.utf8.count < InfoText.maxBytes {
                    frames[frames.count - 1] = .property(prefix: prefix, name: name, text: own + text, items: items,
                                                         container: nil)
                }
            default:
                break
            }
        }

        private func emit(_ prefix: String, _ name: String, _ value: InfoValue) {
            guard !prefix.isEmpty, count < InfoXMP.maxProperties else { return }
            count += 1
            found[prefix, default: [:]][name] = value
        }
    }
}
