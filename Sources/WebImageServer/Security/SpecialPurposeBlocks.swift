/// The IANA IPv4 and IPv6 special-purpose address registries, as the source policy refuses them: every
/// block, except the globally reachable entries nested inside the IETF protocol assignment blocks (listed
/// first, so the first matching block decides). Top-level blocks marked globally reachable (the AS112 and
/// AMT anycast blocks) are refused too: no image origin lives there.
enum SpecialPurposeBlocks {
    struct V4 {
        var network: UInt32
        var length: UInt32
        var addressClass: AddressClass

        init(_ text: String, _ length: UInt32, _ addressClass: AddressClass) {
            // The literals below are dotted quads; a typo fails every policy test at once.
            network = IPAddress.parseV4(Substring(text)) ?? .max
            self.length = length
            self.addressClass = addressClass
        }

        func contains(_ value: UInt32) -> Bool {
            length == 0 || value >> (32 - length) == network >> (32 - length)
        }
    }

    struct V6 {
        var network: [UInt8]
        var length: Int
        var addressClass: AddressClass

        init(_ text: String, _ length: Int, _ addressClass: AddressClass) {
            network = IPAddress.parseV6(Substring(text)) ?? []
            self.length = length
            self.addressClass = addressClass
        }

        func contains(_ bytes: [UInt8]) -> Bool {
            guard network.count == 16, bytes.count == 16 else { return false }
            let whole = length / 8, rest = length % 8
            guard bytes[0..<whole] == network[0..<whole] else { return false }
            guard rest > 0 else { return true }
            let mask = UInt8(0xFF) << (8 - rest)
            return bytes[whole] & mask == network[whole] & mask
        }
    }

    static let v4: [V4] = [
        V4("0.0.0.0", 8, .unspecified), V4("10.0.0.0", 8, .privateNetwork), V4("100.64.0.0", 10, .sharedAddressSpace),
        V4("127.0.0.0", 8, .loopback), V4("169.254.0.0", 16, .linkLocal), V4("172.16.0.0", 12, .privateNetwork),
        // Port Control Protocol and TURN anycast: globally reachable inside the protocol assignments.
        V4("192.0.0.9", 32, .public), V4("192.0.0.10", 32, .public), V4("192.0.0.0", 24, .specialPurpose),
        V4("192.0.2.0", 24, .documentation), V4("192.31.196.0", 24, .specialPurpose),
        V4("192.52.193.0", 24, .specialPurpose), V4("192.88.99.0", 24, .specialPurpose),
        V4("192.168.0.0", 16, .privateNetwork), V4("192.175.48.0", 24, .specialPurpose),
        V4("198.18.0.0", 15, .benchmarking), V4("198.51.100.0", 24, .documentation),
        V4("203.0.113.0", 24, .documentation), V4("224.0.0.0", 4, .multicast), V4("240.0.0.0", 4, .unspecified),
    ]

    /// Decided before any embedded IPv4 address is looked at (`::1` is no IPv4-compatible 0.0.0.1).
    static let v6Exact: [V6] = [V6("::", 128, .unspecified), V6("::1", 128, .loopback)]

    /// Judged after the embedded IPv4 addresses were found public (or there were none).
    static let v6: [V6] = [
        V6("64:ff9b:1::", 48, .specialPurpose), V6("100::", 64, .specialPurpose), V6("100:0:0:1::", 64, .specialPurpose),
        // Teredo (its server and client were judged) and the globally reachable protocol assignments.
        V6("2001::", 32, .public), V6("2001:1::1", 128, .public), V6("2001:1::2", 128, .public),
        V6("2001:1::3", 128, .public), V6("2001:3::", 32, .public), V6("2001:4:112::", 48, .public),
        V6("2001:20::", 28, .public), V6("2001:30::", 28, .public), V6("2001:2::", 48, .benchmarking),
        V6("2001::", 23, .specialPurpose), V6("2001:db8::", 32, .documentation),
        V6("2620:4f:8000::", 48, .specialPurpose), V6("3fff::", 20, .documentation), V6("5f00::", 16, .specialPurpose),
        V6("fc00::", 7, .uniqueLocal), V6("fe80::", 10, .linkLocal), V6("fec0::", 10, .uniqueLocal),
        V6("ff00::", 8, .multicast),
    ]
}
