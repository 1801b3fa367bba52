import Testing
@testable import WebImageServer

@Suite struct SourcePolicyTests {
    static let strict = SourcePolicy()

    static func refused(_ source: String, by policy: SourcePolicy = strict) -> Bool {
        do {
            _ = try policy.check(source)
            return false
        } catch {
            return error.status == 404
        }
    }

    @Test(arguments: [
        ("127.0.0.1", AddressClass.loopback), ("2130706433", .loopback), ("0177.0.0.1", .loopback), ("0x7f.1", .loopback),
        ("127.1", .loopback), ("10.1.2.3", .privateNetwork), ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork),
        ("192.168.1.1", .privateNetwork), ("169.254.169.254", .linkLocal), ("100.64.0.1", .sharedAddressSpace),
        ("224.0.0.1", .multicast), ("0.0.0.0", .unspecified), ("0", .unspecified), ("255.255.255.255", .unspecified),
        ("[::1]", .loopback), ("::", .unspecified), ("[fe80::1%eth0]", .linkLocal), ("fc00::1", .uniqueLocal),
        ("fd12:3456::1", .uniqueLocal), ("ff02::1", .multicast), ("::ffff:127.0.0.1", .loopback),
        ("::ffff:7f00:1", .loopback), ("::ffff:10.0.0.1", .privateNetwork), ("::127.0.0.1", .loopback),
        ("64:ff9b::a9fe:a9fe", .linkLocal), ("8.8.8.8", .public), ("172.32.0.1", .public), ("100.128.0.1", .public),
        ("2001:4860:4860::8888", .public), ("::ffff:8.8.8.8", .public),
    ])
    func addressesAreClassifiedWhateverTheSpelling(host: String, expected: AddressClass) throws {
        let address = try #require(IPAddress(host: host))
        #expect(address.addressClass == expected)
    }

    @Test func hostNamesAndMalformedAddressesAreNotAddresses() {
        for host in ["example.com", "1.2.3.4.5", "256.1.1.1", "1..2", "::1::2", "1:2:3:4:5:6:7:8:9", "09.1.1.1", "a:b"] {
            #expect(IPAddress(host: host) == nil, "\(host)")
        }
    }

    @Test func privateSourcesAreRefusedWithTheSwitchNamed() {
        for source in ["http://127.0.0.1/a.png", "http://2130706433/a.png", "http://[::ffff:127.0.0.1]:8080/a",
                       "http://169.254.169.254/latest/meta-data", "https://10.0.0.1/x", "http://0/x", "http://[::1]/x"] {
            #expect(Self.refused(source), "\(source)")
        }
        let named = [("http://127.0.0.1/a.png", "--allow-loopback-sources"), ("http://[::1]/x", "--allow-loopback-sources"),
                     ("https://10.0.0.1/x", "--allow-private-network-sources"),
                     ("http://[fd12::1]/x", "--allow-private-network-sources"),
                     ("http://169.254.169.254/x", "--allow-link-local-sources"), ("http://100.64.0.1/x", "--allow-private-sources"),
                     ("http://0/x", "--allow-private-sources")]
        for (source, switchName) in named {
            #expect(throws: ProxyError.self) { try Self.strict.check(source) }
            do {
                _ = try Self.strict.check(source)
            } catch {
                #expect(error.description.contains("start the server with \(switchName) to allow"), "\(source): \(error)")
            }
        }
        let open = SourcePolicy(allowsPrivateAddresses: true)
        #expect(!Self.refused("http://127.0.0.1/a.png", by: open))
    }

    /// imgproxy's three switches, each for its own class only (`fc00::/7` is private, as Go's `IsPrivate`);
    /// every other special-purpose class stays refused unless all are allowed.
    @Test(arguments: [
        (SourcePolicy(allowsLoopbackAddresses: true), ["http://127.0.0.1/a", "http://[::1]/a", "http://[::ffff:127.0.0.1]/a"]),
        (SourcePolicy(allowsPrivateNetworkAddresses: true), ["http://10.1.2.3/a", "http://172.16.0.1/a", "http://192.168.1.1/a",
                                                             "http://[fd12:3456::1]/a", "http://[::ffff:10.0.0.1]/a"]),
        (SourcePolicy(allowsLinkLocalAddresses: true), ["http://169.254.169.254/a", "http://[fe80::1]/a"]),
    ])
    func eachSwitchAllowsItsClassOnly(policy: SourcePolicy, allowed: [String]) {
        let every = ["http://127.0.0.1/a", "http://[::1]/a", "http://[::ffff:127.0.0.1]/a", "http://10.1.2.3/a",
                     "http://172.16.0.1/a", "http://192.168.1.1/a", "http://[fd12:3456::1]/a", "http://[::ffff:10.0.0.1]/a",
                     "http://169.254.169.254/a", "http://[fe80::1]/a", "http://100.64.0.1/a", "http://224.0.0.1/a",
                     "http://0.0.0.0/a", "http://192.0.2.1/a"]
        for source in every {
            #expect(Self.refused(source, by: policy) == !allowed.contains(source), "\(source)")
        }
        #expect(!Self.refused("http://8.8.8.8/a", by: policy))
    }

    @Test func onlyHttpSchemesAndAllowedPrefixes() throws {
        #expect(Self.refused("file:///etc/passwd"))
        #expect(Self.refused("ftp://example.com/a.png"))
        #expect(Self.refused("gopher://example.com/a.png"))
        #expect(try Self.strict.check("https://example.com/a.png").host == "example.com")
        let listed = SourcePolicy(allowedPrefixes: ["https://cdn.example.com/"])
        #expect(!Self.refused("https://cdn.example.com/a.png", by: listed))
        #expect(Self.refused("https://cdn.example.com.evil.net/a.png", by: listed))
        #expect(Self.refused("http://cdn.example.com/a.png", by: listed))
        // imgproxy's wildcards: `*` never crosses a `/`.
        let wild = SourcePolicy(allowedPrefixes: ["https://*.example.com/", "https://store.test/*/public/"])
        #expect(!Self.refused("https://img.example.com/a.png", by: wild))
        #expect(!Self.refused("https://a.b.example.com/a.png", by: wild))
        #expect(Self.refused("https://evil.net/.example.com/a.png", by: wild))
        #expect(Self.refused("https://img.example.com.evil.net/a.png", by: wild))
        #expect(!Self.refused("https://store.test/u1/public/a.png", by: wild))
        #expect(Self.refused("https://store.test/u1/private/public/a.png", by: wild))
        #expect(throws: ProxyError.badRequest("the source 'not a url' is not an absolute URL with a host")) {
            try Self.strict.check("not a url")
        }
    }
}
