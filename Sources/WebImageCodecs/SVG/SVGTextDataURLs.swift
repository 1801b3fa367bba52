import Foundation

/// `data:` URLs as librsvg reads them (the only URLs it loads with no base file): the URL parser drops tabs and
/// line breaks anywhere and control characters and spaces at the ends, the scheme has any case, the fragment
/// (from the first `#`) is cut, and the data after the first `,` is percent-decoded, then base64-decoded when the
/// media type says `;base64`.
enum SVGTextDataURLs {
    /// The URL as the URL parser sees it.
    static func normalized(_ text: String) -> Substring {
        let kept = text.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        var view = Substring.UnicodeScalarView(kept)
        while let first = view.first, first.value <= 0x20 { view.removeFirst() }
        while let last = view.last, last.value <= 0x20 { view.removeLast() }
        return Substring(view)
    }

    static func isDataURL(_ text: String) -> Bool {
        var bytes = text.utf8.drop { $0 <= 0x20 }[...]
        return startsWithData(&bytes)
    }

    /// Whether `data:` appears anywhere in the text, tabs and line breaks dropped, in any case.
    static func mentionsDataURL(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        while let start = bytes.firstIndex(where: { $0 | 0x20 == UInt8(ascii: "d") }) {
            bytes = bytes[start...]
            var candidate = bytes
            if startsWithData(&candidate) { return true }
            bytes = bytes.dropFirst()
        }
        return false
    }

    /// Whether the bytes start with `data:` in any case, tabs and line breaks skipped.
    private static func startsWithData(_ bytes: inout Substring.UTF8View.SubSequence) -> Bool {
        for expected in "data:".utf8 {
            while let first = bytes.first, first == 0x09 || first == 0x0A || first == 0x0D { bytes = bytes.dropFirst() }
            guard let first = bytes.first, first | 0x20 == expected | 0x20 else { return false }
            bytes = bytes.dropFirst()
        }
        return true
    }

    /// What the URL may hold: its data percent-decoded, and that decoded as base64 too when it can be (both,
    /// whatever the media type says: more to check, never less).
    static func payloads(_ text: String) -> [Data] {
        let url = normalized(text)
        guard url.prefix(5).lowercased() == "data:" else { return [] }
        let withoutFragment = url.prefix { $0 != "#" }.dropFirst(5)
        guard let comma = withoutFragment.firstIndex(of: ",") else { return [] }
        let data = percentDecoded(withoutFragment[withoutFragment.index(after: comma)...])
        return [data] + (base64Decoded(data).map { [$0] } ?? [])
    }

    /// `%XX` sequences as bytes; a `%` not followed by two hex digits stays as it is.
    private static func percentDecoded(_ text: Substring) -> Data {
        let bytes = Array(text.utf8)
        var result = Data(capacity: bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        Character(Unicode.Scalar(byte)).hexDigitValue.map(UInt8.init)
    }

    /// WHATWG's forgiving base64: ASCII whitespace dropped, padding optional.
    private static func base64Decoded(_ data: Data) -> Data? {
        var text = String(decoding: data.filter { ![0x09, 0x0A, 0x0C, 0x0D, 0x20].contains($0) }, as: UTF8.self)
        if text.utf8.count % 4 == 0, text.hasSuffix("=") { text.removeLast(text.hasSuffix("==") ? 2 : 1) }
        guard text.utf8.count % 4 != 1 else { return nil }
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return Data(base64Encoded: text)
    }
}
