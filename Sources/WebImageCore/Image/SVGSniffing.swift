/// Whether text is an SVG document: after an optional UTF-8 byte-order mark and whitespace, an XML prolog
/// (declaration, processing instructions, comments, a doctype with its internal subset) and then an `<svg`
/// root element, all within the first ``prefixLength`` bytes.
///
/// Looking for the root rather than a closing `</svg>` at the end accepts files with trailing text (a comment,
/// whitespace, a truncated download) and refuses HTML or XML that merely mentions `</svg>`.
package enum SVGSniffing {
    /// How far the root element is looked for: real prologs (an editor's comment, a doctype with a few
    /// entities) are far shorter.
    static let prefixLength = 4096

    static func isSVG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        rootOffset(bytes) != nil
    }

    /// Where the root element's `<svg` starts when the bytes are an SVG document, else nil: what a change made
    /// at the root (the service's `style`) finds it with, so it applies to exactly what sniffs as SVG.
    package static func rootOffset(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let text = bytes.prefix(prefixLength)
        var index = text.startIndex
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        func skipWhitespace() {
            while index < text.endIndex, [0x20, 0x09, 0x0D, 0x0A].contains(text[index]) { index += 1 }
        }
        func hasPrefix(_ string: String) -> Bool {
            text[index...].starts(with: string.utf8)
        }
        while true {
            skipWhitespace()
            if hasPrefix("<?") {
                guard skip(past: "?>", in: text, from: &index) else { return nil }
            } else if hasPrefix("<!--") {
                guard skip(past: "-->", in: text, from: &index) else { return nil }
            } else if hasPrefix("<!DOCTYPE") || hasPrefix("<!doctype") {
                guard skipDoctype(text, from: &index) else { return nil }
            } else if hasPrefix("<svg") {
                let next = index + 4
                let delimited = next < text.endIndex && [0x20, 0x09, 0x0D, 0x0A, 0x3E, 0x2F].contains(text[next])
                return delimited ? index : nil
            } else {
                return nil
            }
        }
    }

    /// Moves past the next `terminator`; false when the prefix ends first.
    private static func skip(past terminator: String, in text: UnsafeRawBufferPointer.SubSequence,
                             from index: inout Int) -> Bool {
        let needle = Array(terminator.utf8)
        while index + needle.count <= text.endIndex {
            if text[index...].starts(with: needle) {
                index += needle.count
                return true
            }
            index += 1
        }
        return false
    }

    /// Moves past a doctype's closing `>`, skipping quoted strings and its `[…]` internal subset, and the
    /// comments and processing instructions in it (whose text may hold a quote or a bracket).
    private static func skipDoctype(_ text: UnsafeRawBufferPointer.SubSequence, from index: inout Int) -> Bool {
        var depth = 0
        var quote: UInt8?
        while index < text.endIndex {
            if quote == nil, depth > 0, text[index...].starts(with: "<!--".utf8) {
                guard skip(past: "-->", in: text, from: &index) else { return false }
                continue
            }
            if quote == nil, depth > 0, text[index...].starts(with: "<?".utf8) {
                guard skip(past: "?>", in: text, from: &index) else { return false }
                continue
            }
            let byte = text[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case 0x22, 0x27: quote = byte
            case 0x5B: depth += 1
            case 0x5D: depth -= 1
            case 0x3E where depth <= 0: return true
            default: break
            }
        }
        return false
    }
}
