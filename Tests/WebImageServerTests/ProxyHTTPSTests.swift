import Foundation
import NIOCore
import NIOSSL
import Synchronization
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// https sources through the guarded transport: connected to the pinned (checked) address while TLS still
/// sends the source's host name (SNI) and verifies the certificate against it, trusting a test CA through
/// ``ImageProxyConfiguration/additionalTrustRootFiles``; and a host resolving to a refused address is refused
/// before any connection.
@Suite struct ProxyHTTPSTests {
    /// What the https origin saw: connections accepted and the SNI host name of each handshake.
    final class Handshakes: Sendable {
        private let accepted = Atomic<Int>(0)
        private let names = Mutex<[String?]>([])

        var connections: Int { accepted.load(ordering: .relaxed) }
        var serverNames: [String?] { names.withLock { $0 } }

        func connected() { accepted.add(1, ordering: .relaxed) }
        func hello(_ name: String?) { names.withLock { $0.append(name) } }
    }

    /// The loopback server behind a TLS handler presenting `certificates`' server certificate.
    static func startOrigin(_ certificates: TestCertificates, handshakes: Handshakes) async throws -> TestHTTPServer {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificates.certificateFile).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: certificates.keyFile, format: .pem)))
        tls.sslContextCallback = { values, promise in
            handshakes.hello(values.serverHostname)
            promise.succeed(.noChanges)
        }
        let context = try NIOSSLContext(configuration: tls)
        let origin = try await TestHTTPServer.start(firstHandler: {
            handshakes.connected()
            return NIOSSLServerHandler(context: context)
        })
        origin.route("/a.jpg", TestResponse(headers: [("Content-Type", "image/jpeg")], body: try Fixtures.jpeg(64, 48)))
        return origin
    }

    /// Every name resolves to the origin's loopback address; only `images.test` and `other.test` are trusted,
    /// so `blocked.test` stays a refused loopback address.
    static let resolver = MapResolver(["images.test": [.v4(0x7F00_0001)], "other.test": [.v4(0x7F00_0001)],
                                       "blocked.test": [.v4(0x7F00_0001)]])

    static func configuration(trusting certificates: TestCertificates?) -> ImageProxyConfiguration {
        var configuration = ImageProxyConfiguration(
            signing: .init(keyPairs: [ProxyHarness.keyPair]),
            sources: .init(policy: SourcePolicy(trustedHosts: ["images.test", "other.test"])),
            concurrency: .init(workers: 2))
        if let certificates { configuration.sources.additionalTrustRootFiles = [certificates.caFile] }
        return configuration
    }

    static func path(_ options: String, _ source: String) -> String {
        URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(ProxyHarness.plainPart(options, source: source))
    }

    @Test func anHTTPSSourceIsFetchedThroughThePinnedAddressWithItsNameVerified() async throws {
        let certificates = try TestCertificates.make(dnsNames: ["images.test"])
        defer { certificates.remove() }
        let handshakes = Handshakes()
        let origin = try await Self.startOrigin(certificates, handshakes: handshakes)
        let port = origin.port
        try await ProxyHarness.with(Self.configuration(trusting: certificates), resolver: Self.resolver) { harness in
            let answer = try await harness.get(Self.path("w:32", "https://images.test:\(port)/a.jpg"))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try answer.image().pixelWidth == 32)
            #expect(origin.requests(for: "/a.jpg").map { $0.header("Host") } == ["images.test:\(port)"])
            #expect(handshakes.serverNames == ["images.test"])

            // The same address under a name the certificate does not cover: the handshake fails (the name is
            // verified, not the address), and no request reaches the origin.
            let mismatch = try await harness.get(Self.path("w:32", "https://other.test:\(port)/a.jpg"))
            #expect(mismatch.status == 404, "\(mismatch.text)")
            #expect(handshakes.serverNames == ["images.test", "other.test"])
            #expect(origin.requestCount(for: "/a.jpg") == 1)
        }
        try await origin.shutdown()
    }

    /// An untrusted certificate makes the source unreachable: 404, as imgproxy answers any failed connection.
    @Test func withoutTrustInTheCATheSourceIsUnreachable() async throws {
        let certificates = try TestCertificates.make(dnsNames: ["images.test"])
        defer { certificates.remove() }
        let handshakes = Handshakes()
        let origin = try await Self.startOrigin(certificates, handshakes: handshakes)
        let port = origin.port
        try await ProxyHarness.with(Self.configuration(trusting: nil), resolver: Self.resolver) { harness in
            let answer = try await harness.get(Self.path("w:32", "https://images.test:\(port)/a.jpg"))
            #expect(answer.status == 404, "\(answer.text)")
            #expect(handshakes.connections == 1)
            #expect(origin.requestCount(for: "/a.jpg") == 0)
        }
        try await origin.shutdown()
    }

    @Test func aNameResolvingToARefusedAddressIsRefusedBeforeConnecting() async throws {
        let certificates = try TestCertificates.make(dnsNames: ["blocked.test"])
        defer { certificates.remove() }
        let handshakes = Handshakes()
        let origin = try await Self.startOrigin(certificates, handshakes: handshakes)
        let port = origin.port
        try await ProxyHarness.with(Self.configuration(trusting: certificates), resolver: Self.resolver) { harness in
            let answer = try await harness.get(Self.path("w:32", "https://blocked.test:\(port)/a.jpg"))
            #expect(answer.status == 404)
            #expect(answer.text.contains("blocked.test is 127.0.0.1"))
            #expect(answer.text.contains("--allow-loopback-sources"))
            #expect(handshakes.connections == 0)
            #expect(origin.totalRequestCount == 0)
        }
        try await origin.shutdown()
    }
}
