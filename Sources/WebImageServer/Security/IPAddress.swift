import Foundation

/// An IPv4 or IPv6 address, parsed from every spelling a URL host or a resolver can give, so a source policy
/// judges the address itself and not its text.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    case v4(UInt32)
    case v6([UInt8])

    /// Parses a URL host: dotted IPv4 in inet_aton's forms (1 to 4 parts, each decimal, `0x` hex or
    /// leading-`0` octal: `2130706433`, `0177.0.0.1`, `0x7f.1` are all 127.0.0.1), or IPv6 with or without
    /// brackets (an embedded dotted IPv4 tail and a `%zone` allowed). Nil for a host name.
    public init?(host: some StringProtocol) {
        var text = Substring(host)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if text.contains(":") {
            guard let bytes = Self.parseV6(text) else { return nil }
            self = .v6(bytes)
        } else if let value = Self.parseV4(text) {
            self = .v4(value)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .v4(let value): "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        case .v6(let bytes):
            stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
                .joined(separator: ":")
        }
    }

    /// inet_aton: the last part fills the bytes the earlier ones leave.
    static func parseV4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            guard let value = parseNumber(part) else { return nil }
            values.append(value)
        }
        var result: UInt64 = 0
        for (index, value) in values.dropLast().enumerated() {
            guard value <= 0xFF else { return nil }
            result |= value << (8 * (3 - UInt64(index)))
        }
        let last = values[values.count - 1], remainingBits = 8 * UInt64(5 - values.count)
        guard last < (1 << remainingBits) else { return nil }
        return UInt32(result | last)
    }

    private static func parseNumber(_ part: Substring) -> UInt64? {
        guard !part.isEmpty, part.count <= 12 else { return nil }
        if part.lowercased().hasPrefix("0x") { return part.count == 2 ? 0 : UInt64(part.dropFirst(2), radix: 16) }
        if part.hasPrefix("0"), part.count > 1 { return UInt64(part.dropFirst(), radix: 8) }
        return UInt64(part, radix: 10)
    }

    static func parseV6(_ text: Substring) -> [UInt8]? {
        var text = text
        if let zone = text.firstIndex(of: "%") { text = text[..<zone] }
        var tail: [UInt8] = []
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains(".") {
            guard let v4 = parseDottedQuad(text[text.index(after: lastColon)...]) else { return nil }
            tail = [UInt8(v4 >> 24), UInt8(v4 >> 16 & 0xFF), UInt8(v4 >> 8 & 0xFF), UInt8(v4 & 0xFF)]
            text = text[...lastColon]
            if text.hasSuffix(":"), !text.hasSuffix("::") { text = text.dropLast() }
        }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                result.append(value)
            }
            return result
        }
        guard let head = groups(halves[0]), let rest = halves.count == 2 ? groups(halves[1]) : [] else { return nil }
        let total = (head.count + rest.count) * 2 + tail.count
        if halves.count == 1 { guard total == 16 else { return nil } } else { guard total <= 14 else { return nil } }
        var bytes: [UInt8] = head.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        bytes += [UInt8](repeating: 0, count: 16 - total)
        bytes += rest.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } + tail
        return bytes
    }

    /// Strict a.b.c.d, as inside IPv6.
    private static func parseDottedQuad(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }
}
