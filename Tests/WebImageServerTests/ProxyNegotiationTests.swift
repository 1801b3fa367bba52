import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// Format negotiation on `Accept`: WebP when listed, else the source's format; `Vary` only when it decided.
@Suite struct ProxyNegotiationTests {
    @Test func acceptChoosesTheFormatAndVaries() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            harness.serve("/a.png", try Fixtures.png(40, 30), contentType: "image/png")
            let path = harness.signedPath("w:20", source: "/a.jpg")
            let browser = try await harness.get(path, headers: [("Accept", "image/avif,image/webp,image/*,*/*;q=0.8")])
            #expect(browser.header("Content-Type") == "image/webp")
            #expect(browser.header("Vary") == "Accept")
            let curl = try await harness.get(path, headers: [("Accept", "*/*")])
            #expect(curl.header("Content-Type") == "image/jpeg")
            #expect(curl.header("Vary") == "Accept")
            let refused = try await harness.get(path, headers: [("Accept", "image/webp;q=0, image/*")])
            #expect(refused.header("Content-Type") == "image/jpeg")
            let png = try await harness.get(harness.signedPath("w:20", source: "/a.png"))
            #expect(png.header("Content-Type") == "image/png")
            let explicit = try await harness.get(harness.signedPath("w:20/f:png", source: "/a.jpg"),
                                                 headers: [("Accept", "image/webp")])
            #expect(explicit.header("Content-Type") == "image/png")
            #expect(explicit.header("Vary") == nil)
            // Two buckets for one source: webp and the source's own format.
            #expect(harness.proxy.statistics.snapshot.encodes == 4)
        }
    }

    @Test func negotiationCanBeTurnedOff() async throws {
        let configuration = ProxyHarness.configuration { $0.negotiatesFormat = false }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let answer = try await harness.get(harness.signedPath("w:20", source: "/a.jpg"),
                                               headers: [("Accept", "image/webp")])
            #expect(answer.header("Content-Type") == "image/jpeg")
            #expect(answer.header("Vary") == nil)
        }
    }

    @Test func acceptHeaderParsing() {
        let header = AcceptHeader("image/avif, image/webp;q=0.5 ,image/*;q=0.8, */*;q=0.1, bad, image/png;q=x")
        #expect(header.explicitQuality(of: "image/webp") == 0.5)
        #expect(header.explicitQuality(of: "image/avif") == 1)
        #expect(header.explicitQuality(of: "image/png") == 1)
        #expect(header.explicitQuality(of: "image/gif") == nil)
        #expect(AcceptHeader(nil).ranges.isEmpty)
    }
}
