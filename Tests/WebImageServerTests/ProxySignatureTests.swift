import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// Signatures over real HTTP: good, bad, rotated keys, truncated, unsigned allowed and not.
@Suite struct ProxySignatureTests {
    static let oldPair = URLSigner.KeyPair(keyHex: "6f6c64", saltHex: "73616c74")!

    @Test func goodAndBadSignatures() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let good = harness.signedPath("w:20", source: "/a.jpg")
            #expect(try await harness.get(good).status == 200)
            let tampered = good.replacingOccurrences(of: "w:20", with: "w:21")
            let answer = try await harness.get(tampered)
            #expect(answer.status == 403)
            #expect(answer.text.contains("signature"))
            let foreign = URLSigner(keyPairs: [Self.oldPair]).sign(ProxyHarness.plainPart("w:20", source: harness.origin.url("/a.jpg").absoluteString))
            #expect(try await harness.get(foreign).status == 403)
            #expect(harness.origin.requestCount(for: "/a.jpg") == 1)
        }
    }

    @Test func rotatedKeysAreAllAcceptedAndShareTheCache() async throws {
        let configuration = ProxyHarness.configuration { $0.signing.keyPairs = [ProxyHarness.keyPair, Self.oldPair] }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let part = ProxyHarness.plainPart("w:20", source: harness.origin.url("/a.jpg").absoluteString)
            let new = try await harness.get(URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(part))
            let old = try await harness.get(URLSigner(keyPairs: [Self.oldPair]).sign(part))
            #expect(new.status == 200 && old.status == 200)
            #expect(new.body == old.body)
            #expect(harness.proxy.statistics.snapshot.encodes == 1)
        }
    }

    @Test func truncatedSignatures() async throws {
        let configuration = ProxyHarness.configuration { $0.signing.signatureSize = 8 }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let part = ProxyHarness.plainPart("w:20", source: harness.origin.url("/a.jpg").absoluteString)
            let short = URLSigner(keyPairs: [ProxyHarness.keyPair], signatureSize: 8).sign(part)
            #expect(try await harness.get(short).status == 200)
            #expect(try await harness.get(URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(part)).status == 403)
        }
    }

    @Test func unsignedOnlyWhenAllowed() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let part = ProxyHarness.plainPart("w:20", source: harness.origin.url("/a.jpg").absoluteString)
            for signature in ["_", "unsafe"] {
                let answer = try await harness.get("/" + signature + part)
                #expect(answer.status == 403)
                #expect(answer.text.contains("unsigned"))
            }
            #expect(harness.origin.requestCount(for: "/a.jpg") == 0)
        }
        let open = ProxyHarness.configuration { $0.signing.allowsUnsigned = true; $0.signing.keyPairs = [] }
        try await ProxyHarness.with(open) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let part = ProxyHarness.plainPart("w:20", source: harness.origin.url("/a.jpg").absoluteString)
            #expect(try await harness.get("/_" + part).status == 200)
            #expect(try await harness.get("/unsafe" + part).status == 200)
            #expect(try await harness.get("/bogus" + part).status == 403)
        }
    }
}
