/// Where an address points, for SSRF protection: anything but ``public`` is refused unless the operator
/// allows private sources. Every block of the IANA IPv4 and IPv6 special-purpose address registries is
/// refused (see ``SpecialPurposeBlocks``), the globally reachable entries nested inside the IETF protocol
/// assignment blocks (192.0.0.0/24, 2001::/23) aside.
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
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20.
    case documentation
    /// 198.18/15, 2001:2::/48.
    case benchmarking
    /// The registries' other blocks: IETF protocol assignments, local-use NAT64, discard-only, ORCHID, SRv6
    /// SIDs, the AS112 and AMT anycast blocks, the 6to4 relay anycast.
    case specialPurpose = "special-purpose"
}

extension IPAddress {
    /// The class of this address. IPv6 forms that embed an IPv4 address (``embeddedIPv4``: mapped,
    /// compatible, NAT64, 6to4, Teredo, ISATAP) are judged by every embedded one first: a form that reaches a
    /// private IPv4 address through a translator or a tunnel is as private as that address.
    public var addressClass: AddressClass {
        switch self {
        case .v4(let value):
            return SpecialPurposeBlocks.v4.first { $0.contains(value) }?.addressClass ?? .public
        case .v6(let bytes):
            if let exact = SpecialPurposeBlocks.v6Exact.first(where: { $0.contains(bytes) }) { return exact.addressClass }
            let embedded = embeddedIPv4
            if let refused = embedded.lazy.map(\.address.addressClass).first(where: { $0 != .public }) { return refused }
            // Mapped, compatible and NAT64 addresses are nothing but their IPv4 address.
            if embedded.contains(where: \.form.isWholeAddress) { return .public }
            return SpecialPurposeBlocks.v6.first { $0.contains(bytes) }?.addressClass ?? .public
        }
    }
}
