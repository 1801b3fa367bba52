/// Where an address points, for SSRF protection: anything but ``public`` is refused unless the operator
/// allows private sources.
public enum AddressClass: String, Sendable, Hashable {
    case `public`
    case loopback
    /// 10/8, 172.16/12, 192.168/16.
    case privateNetwork = "private"
    /// 169.254/16, fe80::/10.
    case linkLocal = "link-local"
    /// 100.64/10 (carrier-grade NAT).
    case sharedAddressSpace = "shared address space (CGNAT)"
    /// fc00::/7 (and the deprecated fec0::/10 site-local).
    case uniqueLocal = "unique local"
    case multicast
    /// 0.0.0.0/8, ::, 240/4, 255.255.255.255 and other addresses no public host has.
    case unspecified = "unspecified or reserved"
}

extension IPAddress {
    /// The class of this address; IPv6 forms that embed an IPv4 address (mapped `::ffff:a.b.c.d`,
    /// compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) are judged by the embedded one.
    public var addressClass: AddressClass {
        switch self {
        case .v4(let value): Self.classify(v4: value)
        case .v6(let bytes): Self.classify(v6: bytes)
        }
    }

    private static func classify(v4 value: UInt32) -> AddressClass {
        func within(_ network: UInt32, _ prefix: UInt32) -> Bool {
            value >> (32 - prefix) == network >> (32 - prefix)
        }
        if within(0x7F00_0000, 8) { return .loopback }
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) { return .privateNetwork }
        if within(0xA9FE_0000, 16) { return .linkLocal }
        if within(0x6440_0000, 10) { return .sharedAddressSpace }
        if within(0xE000_0000, 4) { return .multicast }
        if within(0x0000_0000, 8) || within(0xF000_0000, 4) { return .unspecified }
        return .public
    }

    private static func classify(v6 bytes: [UInt8]) -> AddressClass {
        let embedded = UInt32(bytes[12]) << 24 | UInt32(bytes[13]) << 16 | UInt32(bytes[14]) << 8 | UInt32(bytes[15])
        let firstTen = bytes[0..<10].allSatisfy { $0 == 0 }
        if firstTen && bytes[10] == 0xFF && bytes[11] == 0xFF { return classify(v4: embedded) }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) {
            if embedded == 0 { return .unspecified }
            if embedded == 1 { return .loopback }
            return classify(v4: embedded)
        }
        if bytes[0] == 0x00, bytes[1] == 0x64, bytes[2] == 0xFF, bytes[3] == 0x9B,
           bytes[4..<12].allSatisfy({ $0 == 0 }) {
            return classify(v4: embedded)
        }
        if bytes[0] == 0xFF { return .multicast }
        if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return .linkLocal }
        if bytes[0] & 0xFE == 0xFC || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0) { return .uniqueLocal }
        return .public
    }
}
