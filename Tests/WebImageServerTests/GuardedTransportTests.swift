import Foundation
import Testing
@testable import WebImageServer

/// Where the transport connects: exactly the checked address, with the source's own `Host`.
@Suite struct GuardedTransportTests {
    @Test func plainHTTPIsAddressedByIP() async throws {
        let url = try #require(URL(string: "http://images.test:8080/a/b.jpg?x=1"))
        let policy = SourcePolicy(trustedHosts: ["images.test"])
        let target = try await PinnedTarget.check(url, policy: policy, resolver: MapResolver(["images.test": [.v4(0x7F00_0001)]]))
        #expect(target.addressURL?.absoluteString == "http://127.0.0.1:8080/a/b.jpg?x=1")
        #expect(target.hostHeader == "images.test:8080")
        let v6 = try await PinnedTarget.check(url, policy: policy, resolver: MapResolver(["images.test": [.v6(Array(repeating: 0, count: 15) + [1])]]))
        #expect(v6.addressURL?.absoluteString == "http://[0:0:0:0:0:0:0:1]:8080/a/b.jpg?x=1")
    }

    @Test func anyPrivateAddressAmongManyRefusesTheHost() async throws {
        let url = try #require(URL(string: "https://mixed.test/a.jpg"))
        let resolver = MapResolver(["mixed.test": [.v4(0x0808_0808), .v4(0x0A00_0001)]])
        await #expect(throws: ProxyError.self) {
            _ = try await PinnedTarget.check(url, policy: SourcePolicy(), resolver: resolver)
        }
    }
}
