/// SigV4's percent-encoding and path normalisation.
enum SigV4Encoding {
    /// Every UTF-8 byte as `%XX` (capital hex) but `A–Z a–z 0–9 - . _ ~`, and `/` when `keepingSlashes`.
    static func encode(_ text: String, keepingSlashes: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlashes:
                out.append("/")
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// RFC 3986's dot segments removed and empty segments dropped, the leading and trailing slash kept.
    static func normalized(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        let trailing = path.hasSuffix("/") || last == "." || last == ".."
        let joined = "/" + segments.joined(separator: "/")
        return trailing && !segments.isEmpty ? joined + "/" : joined
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
