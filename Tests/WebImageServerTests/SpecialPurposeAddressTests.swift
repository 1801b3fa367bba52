import Testing
@testable import WebImageServer

/// The default policy's verdict on every block of the IANA special-purpose address registries and on every
/// IPv6 form that embeds an IPv4 address, before any connection: `check` throws a refusal (404) or returns the URL.
@Suite struct SpecialPurposeAddressTests {
    static func refused(_ host: String) -> Bool {
        do {
            _ = try SourcePolicy().check("http://\(host):8080/a.png")
            return false
        } catch {
            return error.status == 404
        }
    }

    @Test(arguments: [
        // IPv4 registry blocks.
        "0.1.2.3", "10.9.8.7", "100.64.0.1", "127.0.0.2", "169.254.1.1", "172.16.0.1", "192.0.0.1", "192.0.0.170",
        "192.0.2.1", "192.31.196.1", "192.52.193.1", "192.88.99.1", "192.168.0.1", "192.175.48.1", "198.18.0.1",
        "198.19.255.255", "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250", "240.0.0.1",
        "255.255.255.255",
        // IPv6 registry blocks.
        "[::]", "[::1]", "[64:ff9b:1::808:808]", "[100::1]", "[100:0:0:1::1]", "[2001:2::1]", "[2001:10::1]",
        "[2001:1::4]", "[2001:1ff::1]", "[2001:db8::1]", "[2620:4f:8000::1]", "[3fff::1]", "[3fff:fff::1]",
        "[5f00::1]", "[fc00::1]", "[fd00::1]", "[fe80::1]", "[fec0::1]", "[ff02::1]",
        // IPv6 forms embedding a refused IPv4 address.
        "[::ffff:127.0.0.1]", "[::ffff:10.0.0.1]", "[::127.0.0.1]", "[64:ff9b::7f00:1]", "[64:ff9b::a9fe:a9fe]",
        "[64:ff9b:1::7f00:1]", "[2002:7f00:1::]", "[2002:a00:1::1]", "[2002:a9fe:a9fe::1]", "[2002:c0a8:101::]",
        "[2001:0:4136:e378:8000:63bf:80ff:fffe]", "[2001:0:4136:e378:8000:63bf:f5ff:fffe]",
        "[2001:0:7f00:1:8000:63bf:f7f7:f7f7]", "[fe80::5efe:7f00:1]", "[2600::5efe:7f00:1]",
        "[2600::200:5efe:a00:1]", "[2a00::5efe:a9fe:a9fe]",
    ])
    func everySpecialPurposeAddressIsRefused(host: String) {
        #expect(Self.refused(host))
    }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "192.0.0.9", "192.0.0.10", "192.0.3.1", "198.20.0.1", "100.128.0.1", "172.32.0.1",
        "[2001:4860:4860::8888]", "[2606:4700::1111]", "[::ffff:8.8.8.8]", "[64:ff9b::808:808]", "[2002:808:808::1]",
        "[2001:0:4136:e378:8000:63bf:f7f7:f7f7]", "[2001:1::1]", "[2001:3::1]", "[2001:4:112::1]", "[2001:20::1]",
        "[2001:30::1]", "[2600::5efe:808:808]", "[2001:200::1]",
    ])
    func globallyReachableAddressesPass(host: String) {
        #expect(!Self.refused(host))
    }

    @Test func theRefusalNamesTheEmbeddedAddress() {
        for (host, detail) in [("[2002:7f00:1::]", "(6to4 of 127.0.0.1), a loopback address"),
                               ("[2001:0:4136:e378:8000:63bf:80ff:fffe]", "(Teredo client of 127.0.0.1), a loopback address"),
                               ("[64:ff9b:1::7f00:1]", "(local-use NAT64 of 127.0.0.1), a loopback address")] {
            do {
                _ = try SourcePolicy().check("http://\(host)/a.png")
                Issue.record("\(host) was allowed")
            } catch {
                #expect(error.description.contains(detail), "\(host): \(error)")
            }
        }
    }
}
