/// IPv6 forms that carry an IPv4 address: a translator or a tunnel turns a connection to them into one to
/// that IPv4 address, so the policy judges it.
public enum IPv4Embedding: String, Sendable, Hashable {
    /// `::ffff:a.b.c.d`
    case mapped = "IPv4-mapped"
    /// `::a.b.c.d` (deprecated)
    case compatible = "IPv4-compatible"
    /// `64:ff9b::a.b.c.d` (RFC 6052)
    case nat64 = "NAT64"
    /// `64:ff9b:1::/48` (RFC 8215), read as its /96 form; the block is refused whatever it carries.
    case localUseNAT64 = "local-use NAT64"
    /// `2002:AABB:CCDD::/48` (RFC 3056)
    case sixToFour = "6to4"
    /// `2001:0:SSSS:SSSS:flags:port:CCCC:CCCC`, the client inverted (RFC 4380).
    case teredoServer = "Teredo server"
    case teredoClient = "Teredo client"
    /// Any prefix with the interface identifier `0:5efe:a.b.c.d` or `200:5efe:a.b.c.d` (RFC 5214).
    case isatap = "ISATAP"

    /// True for forms that are nothing but their IPv4 address.
    var isWholeAddress: Bool { self == .mapped || self == .compatible || self == .nat64 }
}

extension IPAddress {
    /// The IPv4 addresses this IPv6 address embeds, with the form each was found in; empty for IPv4 and for
    /// IPv6 addresses of no such form.
    public var embeddedIPv4: [(form: IPv4Embedding, address: IPAddress)] {
        guard case .v6(let bytes) = self, bytes.count == 16 else { return [] }
        func v4(_ start: Int, inverted: Bool = false) -> IPAddress {
            let value = bytes[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            return .v4(inverted ? ~value : value)
        }
        func starts(with prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        let zeros = [UInt8](repeating: 0, count: 10)
        if starts(with: zeros + [0xFF, 0xFF]) { return [(.mapped, v4(12))] }
        if starts(with: zeros + [0, 0]) { return [(.compatible, v4(12))] }
        if starts(with: [0x00, 0x64, 0xFF, 0x9B] + [UInt8](repeating: 0, count: 8)) { return [(.nat64, v4(12))] }
        if starts(with: [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01]) { return [(.localUseNAT64, v4(12))] }
        if starts(with: [0x20, 0x02]) { return [(.sixToFour, v4(2))] }
        if starts(with: [0x20, 0x01, 0x00, 0x00]) { return [(.teredoServer, v4(4)), (.teredoClient, v4(12, inverted: true))] }
        if bytes[8] | 0x02 == 0x02, bytes[9] == 0, bytes[10] == 0x5E, bytes[11] == 0xFE { return [(.isatap, v4(12))] }
        return []
    }
}
