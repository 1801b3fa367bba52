import Testing
@testable import WebImageServer

/// What the registry tables and the embedded-IPv4 decoding say about single addresses.
@Suite struct AddressRegistryTests {
    @Test func everyRegistryLiteralParses() {
        #expect(SpecialPurposeBlocks.v4.allSatisfy { $0.network != .max })
        #expect((SpecialPurposeBlocks.v6 + SpecialPurposeBlocks.v6Exact).allSatisfy { $0.network.count == 16 })
    }

    @Test(arguments: [
        ("192.0.2.1", AddressClass.documentation), ("2001:db8::1", .documentation), ("3fff::1", .documentation),
        ("198.18.0.1", .benchmarking), ("2001:2::1", .benchmarking), ("192.0.0.8", .specialPurpose),
        ("5f00::1", .specialPurpose), ("64:ff9b:1::808:808", .specialPurpose), ("2002:7f00:1::", .loopback),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", .loopback), ("2002:a9fe:a9fe::", .linkLocal),
        ("fe80::5efe:a00:1", .privateNetwork), ("2600::5efe:6440:1", .sharedAddressSpace),
        ("2002:808:808::", .public), ("::1", .loopback), ("::", .unspecified),
    ])
    func addressesAreClassifiedByTheRegistries(host: String, expected: AddressClass) throws {
        #expect(try #require(IPAddress(host: host)).addressClass == expected)
    }

    @Test func embeddedAddressesAreDecoded() throws {
        let teredo = try #require(IPAddress(host: "2001:0:4136:e378:8000:63bf:3fff:fdd2"))
        #expect(teredo.embeddedIPv4.map(\.form) == [.teredoServer, .teredoClient])
        #expect(teredo.embeddedIPv4.map(\.address.description) == ["65.54.227.120", "192.0.2.45"])
        #expect(try #require(IPAddress(host: "2002:c000:22a::")).embeddedIPv4.map(\.address.description) == ["192.0.2.42"])
        #expect(try #require(IPAddress(host: "fe80::200:5efe:c000:22a")).embeddedIPv4.first?.form == .isatap)
        #expect(try #require(IPAddress(host: "2001:4860:4860::8888")).embeddedIPv4.isEmpty)
    }
}
