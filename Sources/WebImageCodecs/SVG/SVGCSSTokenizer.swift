/// A CSS token, as CSS Syntax Level 3 cuts text (and cssparser, librsvg's CSS reader, with it): names and strings
/// with their escapes resolved, numbers with their sign and exponent. Comments leave no token.
enum CSSToken: Equatable {
    case ident(String), function(String), atKeyword(String), hash(String), string(String), url(String)
    case number(Double), percentage(Double), dimension(Double, unit: String)
    case whitespace, colon, semicolon, comma, delimiter(Unicode.Scalar)
    /// `(`, `[` or `{`; a function token opens a `(` block too.
    case open(Unicode.Scalar)
    /// `)`, `]` or `}`.
    case close(Unicode.Scalar)
    /// A string cut by a newline, a `url(…)` with a quote or space inside, `<!--`, `-->`.
    case other

    /// The closing bracket of the block this token opens, or nil.
    var closer: Unicode.Scalar? {
        switch self {
        case .function: ")"
        case .open("("): ")"
        case .open("["): "]"
        case .open("{"): "}"
        default: nil
        }
    }
}

/// Cuts CSS text into ``CSSToken``s.
struct CSSTokenizer {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    static func tokens(_ text: String) -> [CSSToken] {
        var tokenizer = CSSTokenizer(scalars: Array(text.unicodeScalars))
        var tokens: [CSSToken] = []
        while let token = tokenizer.next() { tokens.append(token) }
        return tokens
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func next() -> CSSToken? {
        while peek() == "/", peek(1) == "*" {
            index += 2
            while index < scalars.count, !(peek() == "*" && peek(1) == "/") { index += 1 }
            index = min(index + 2, scalars.count)
        }
        guard let first = peek() else { return nil }
        if Self.isWhitespace(first) {
            while let scalar = peek(), Self.isWhitespace(scalar) { index += 1 }
            return .whitespace
        }
        switch first {
        case "\"", "'":
            index += 1
            return string(until: first)
        case "#":
            index += 1
            if let scalar = peek(), Self.isName(scalar) || startsEscape(0) { return .hash(name()) }
            return .delimiter("#")
        case "(", "[", "{": index += 1; return .open(first)
        case ")", "]", "}": index += 1; return .close(first)
        case ":": index += 1; return .colon
        case ";": index += 1; return .semicolon
        case ",": index += 1; return .comma
        case "@":
            index += 1
            return startsIdentifier(0) ? .atKeyword(name()) : .delimiter("@")
        case "<" where peek(1) == "!" && peek(2) == "-" && peek(3) == "-":
            index += 4
            return .other
        case "-" where peek(1) == "-" && peek(2) == ">":
            index += 3
            return .other
        default:
            if startsNumber() { return numeric() }
            if startsIdentifier(0) { return identLike() }
            index += 1
            return .delimiter(first)
        }
    }

    // MARK: Names and escapes

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || scalar == "_" || scalar.value >= 0x80
    }

    private static func isName(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || (scalar >= "0" && scalar <= "9") || scalar == "-"
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }

    /// Whether a backslash at `offset` starts an escape (one not followed by a newline).
    private func startsEscape(_ offset: Int) -> Bool {
        guard peek(offset) == "\\" else { return false }
        guard let next = peek(offset + 1) else { return true }
        return next != "\n" && next != "\r" && next != "\u{0C}"
    }

    private func startsIdentifier(_ offset: Int) -> Bool {
        guard let first = peek(offset) else { return false }
        if first == "-" {
            guard let second = peek(offset + 1) else { return false }
            return Self.isNameStart(second) || second == "-" || startsEscape(offset + 1)
        }
        return Self.isNameStart(first) || startsEscape(offset)
    }

    /// The escaped code point after a backslash (consumed): up to six hex digits and one whitespace, or the
    /// character itself; U+FFFD for zero, a surrogate, past U+10FFFF or the end of the text.
    private mutating func escape() -> Unicode.Scalar {
        index += 1
        guard let first = peek() else { return "\u{FFFD}" }
        guard Self.hexValue(first) != nil else {
            index += 1
            return first
        }
        var value: UInt32 = 0
        var digits = 0
        while digits < 6, let scalar = peek(), let digit = Self.hexValue(scalar) {
            value = value * 16 + digit
            digits += 1
            index += 1
        }
        if let scalar = peek(), Self.isWhitespace(scalar) { index += 1 }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    private mutating func name() -> String {
        var result = String.UnicodeScalarView()
        while let scalar = peek() {
            if Self.isName(scalar) {
                result.append(scalar)
                index += 1
            } else if startsEscape(0) {
                result.append(escape())
            } else {
                break
            }
        }
        return String(result)
    }

    // MARK: Strings, URLs, numbers

    private mutating func string(until quote: Unicode.Scalar) -> CSSToken {
        var result = String.UnicodeScalarView()
        while let scalar = peek() {
            switch scalar {
            case quote:
                index += 1
                return .string(String(result))
            case "\n", "\r", "\u{0C}":
                return .other
            case "\\":
                if let next = peek(1), next == "\n" || next == "\r" || next == "\u{0C}" {
                    index += 2
                } else if peek(1) == nil {
                    index += 1
                } else {
                    result.append(escape())
                }
            default:
                result.append(scalar)
                index += 1
            }
        }
        return .string(String(result))
    }

    private mutating func identLike() -> CSSToken {
        let text = name()
        guard peek() == "(" else { return .ident(text) }
        index += 1
        guard text.lowercased() == "url" else { return .function(text) }
        var lookahead = 0
        while let scalar = peek(lookahead), Self.isWhitespace(scalar) { lookahead += 1 }
        if let scalar = peek(lookahead), scalar == "\"" || scalar == "'" { return .function(text) }
        index += lookahead
        return url()
    }

    /// An unquoted `url(…)`, its opening consumed.
    private mutating func url() -> CSSToken {
        var result = String.UnicodeScalarView()
        while let scalar = peek() {
            index += 1
            switch scalar {
            case ")":
                return .url(String(result))
            case _ where Self.isWhitespace(scalar):
                while let next = peek(), Self.isWhitespace(next) { index += 1 }
                if peek() == ")" || peek() == nil {
                    index = min(index + 1, scalars.count)
                    return .url(String(result))
                }
                skipBadURL()
                return .other
            case "\"", "'", "(":
                skipBadURL()
                return .other
            case "\\":
                index -= 1
                guard startsEscape(0) else {
                    skipBadURL()
                    return .other
                }
                result.append(escape())
            default:
                result.append(scalar)
            }
        }
        return .url(String(result))
    }

    private mutating func skipBadURL() {
        while let scalar = peek() {
            if startsEscape(0) {
                _ = escape()
                continue
            }
            index += 1
            if scalar == ")" { return }
        }
    }

    private func startsNumber() -> Bool {
        func isDigit(_ scalar: Unicode.Scalar?) -> Bool { scalar.map { $0 >= "0" && $0 <= "9" } ?? false }
        var offset = 0
        if peek() == "+" || peek() == "-" { offset = 1 }
        if isDigit(peek(offset)) { return true }
        return peek(offset) == "." && isDigit(peek(offset + 1))
    }

    private mutating func numeric() -> CSSToken {
        func isDigit(_ scalar: Unicode.Scalar?) -> Bool { scalar.map { $0 >= "0" && $0 <= "9" } ?? false }
        var text = String.UnicodeScalarView()
        if let sign = peek(), sign == "+" || sign == "-" {
            text.append(sign)
            index += 1
        }
        while isDigit(peek()) { text.append(peek()!); index += 1 }
        if peek() == ".", isDigit(peek(1)) {
            text.append("."); index += 1
            while isDigit(peek()) { text.append(peek()!); index += 1 }
        }
        if let e = peek(), e == "e" || e == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if isDigit(peek(signed ? 2 : 1)) {
                text.append("e"); index += 1
                if signed { text.append(peek()!); index += 1 }
                while isDigit(peek()) { text.append(peek()!); index += 1 }
            }
        }
        let value = Double(String(text)) ?? .infinity
        if startsIdentifier(0) { return .dimension(value, unit: name()) }
        if peek() == "%" {
            index += 1
            return .percentage(value)
        }
        return .number(value)
    }
}
