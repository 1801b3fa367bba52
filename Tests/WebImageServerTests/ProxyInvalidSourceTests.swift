import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// A source whose port or host no HTTP client can connect to is refused with 400 (or 404 when a source redirects
/// to one), never a crash; the server keeps answering.
@Suite struct ProxyInvalidSourceTests {
    static let sources = ["http://127.0.0.1:99999/img.jpg", "http://127.0.0.1:65536/img.jpg",
                          "http://[::1]:99999/img.jpg", "http://127.0.0.1:4294967297/img.jpg",
                          "http://127.0.0.1:0/img.jpg", "http://127.0.0.1:99999999999999999999999/img.jpg",
                          "http://[zz]/img.jpg"]

    private static func sign(_ part: String) -> String {
        URLSigner(keyPairs: [ProxyHarness.keyPair]).sign(part)
    }

    @Test func badPortsAnswer400InPlainAndBase64Form() async throws {
        try await ProxyHarness.with { harness in
            for source in Self.sources {
                let encoded = Base64URL.encode(Array(source.utf8))
                for path in [Self.sign(ProxyHarness.plainPart("w:20", source: source)), Self.sign("/w:20/\(encoded).png")] {
                    let answer = try await harness.get(path)
                    #expect(answer.status == 400, "\(source): \(answer.text)")
                    #expect(answer.text.contains("not a valid URL"), "\(source): \(answer.text)")
                }
                let info = try await harness.get("/info" + Self.sign(ProxyHarness.plainPart("", source: source)))
                #expect(info.status == 400, "info \(source): \(info.text)")
            }
            #expect(try await harness.get("/health").status == 200)
        }
    }

    @Test func redirectsToBadPortsAnswer404() async throws {
        try await ProxyHarness.with { harness in
            let targets = ["/to-v4": "http://127.0.0.1:99999/img.jpg", "/to-v6": "http://[::1]:70000/img.jpg",
                           "/to-huge": "http://127.0.0.1:4294967297/img.jpg"]
            for (path, location) in targets {
                harness.origin.route(path, TestResponseFactory.redirect(to: location))
                let answer = try await harness.get(Self.sign(ProxyHarness.plainPart("w:20", source: harness.origin.url(path).absoluteString)))
                #expect(answer.status == 404, "\(path): \(answer.text)")
                #expect(answer.text.contains("a redirect target"), "\(path): \(answer.text)")
            }
            #expect(try await harness.get("/health").status == 200)
        }
    }
}
