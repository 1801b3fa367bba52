import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// SSRF with private sources not allowed: every spelling of a loopback source is refused before any
/// connection, proved by the origin's request counter staying at 0; redirects are checked hop by hop.
@Suite struct ProxySSRFTests {
    static let strict = ProxyHarness.configuration { $0.sources.policy = SourcePolicy() }

    @Test func loopbackInEverySpellingIsRefusedBeforeConnecting() async throws {
        try await ProxyHarness.with(Self.strict) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let port = harness.origin.port
            let sources = ["http://127.0.0.1:\(port)/a.jpg", "http://2130706433:\(port)/a.jpg",
                           "http://0177.0.0.1:\(port)/a.jpg", "http://0x7f.1:\(port)/a.jpg",
                           "http://[::1]:\(port)/a.jpg", "http://[::ffff:127.0.0.1]:\(port)/a.jpg",
                           "http://localhost:\(port)/a.jpg", "http://169.254.169.254/latest/meta-data",
                           "http://10.0.0.1:\(port)/a.jpg"]
            for source in sources {
                let path = URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(ProxyHarness.plainPart("w:20", source: source))
                let answer = try await harness.get(path)
                #expect(answer.status == 404, "\(source): \(answer.text)")
                #expect(answer.text.contains(source.contains("10.0.0.1") ? "--allow-private-network-sources"
                    : source.contains("169.254") ? "--allow-link-local-sources" : "--allow-loopback-sources"), "\(source)")
            }
            #expect(harness.origin.totalRequestCount == 0)
        }
    }

    @Test func schemesAndAllowlist() async throws {
        let configuration = ProxyHarness.configuration {
            $0.sources.policy = SourcePolicy(allowedPrefixes: ["http://127.0.0.1:1/"], allowsPrivateAddresses: true)
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            for source in [harness.origin.url("/a.jpg").absoluteString, "file:///etc/passwd", "ftp://127.0.0.1/a"] {
                let path = URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(ProxyHarness.plainPart("", source: source))
                #expect(try await harness.get(path).status == 404, "\(source)")
            }
            #expect(harness.origin.totalRequestCount == 0)
        }
    }

    /// `origin.test` is a trusted internal host resolving to the loopback origin; what it redirects to is
    /// judged on its own.
    @Test func redirectsAreCheckedHopByHop() async throws {
        var configuration = Self.strict
        configuration.sources.policy.trustedHosts = ["origin.test"]
        let resolver = MapResolver(["origin.test": [.v4(0x7F00_0001)]])
        try await ProxyHarness.with(configuration, resolver: resolver) { harness in
            let port = harness.origin.port
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            harness.serve("/secret.jpg", try Fixtures.jpeg(40, 30))
            harness.origin.route("/to-loopback", TestResponseFactory.redirect(to: "http://127.0.0.1:\(port)/secret.jpg"))
            harness.origin.route("/to-localhost", TestResponseFactory.redirect(to: "http://localhost:\(port)/secret.jpg"))
            harness.origin.route("/to-decimal", TestResponseFactory.redirect(to: "http://2130706433:\(port)/secret.jpg", status: 307))
            harness.origin.route("/relative", TestResponseFactory.redirect(to: "/a.jpg", status: 301))
            harness.origin.route("/loop", TestResponseFactory.redirect(to: "/loop"))
            func fetch(_ path: String) async throws -> ProxyHarness.Answer {
                let source = "http://origin.test:\(port)\(path)"
                return try await harness.get(URLSigner(keyPairs: [ProxyHarness.keyPair])
                    .sign(ProxyHarness.plainPart("w:20", source: source)))
            }
            for path in ["/to-loopback", "/to-localhost", "/to-decimal"] {
                let answer = try await fetch(path)
                #expect(answer.status == 404, "\(path): \(answer.text)")
                #expect(answer.text.contains("a loopback address"), "\(path)")
                #expect(harness.origin.requestCount(for: path) == 1)
            }
            #expect(harness.origin.requestCount(for: "/secret.jpg") == 0)
            let followed = try await fetch("/relative")
            #expect(followed.status == 200)
            #expect(harness.origin.requestCount(for: "/a.jpg") == 1)
            let loop = try await fetch("/loop")
            #expect(loop.status == 404, "a redirect loop is an unreachable source, as in imgproxy")
            #expect(harness.origin.requestCount(for: "/loop") == 6)
        }
    }
}

/// Resolves the names it knows, the rest through the system.
struct MapResolver: HostResolving {
    let map: [String: [IPAddress]]

    init(_ map: [String: [IPAddress]]) {
        self.map = map
    }

    func addresses(of host: String) async throws(ProxyError) -> [IPAddress] {
        if let known = map[host] { return known }
        return try await SystemHostResolver().addresses(of: host)
    }
}
