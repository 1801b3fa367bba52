import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// Format negotiation on `Accept`: AVIF, then WebP when listed, else the source's format; `Vary` only when it
/// decided.
@Suite struct ProxyNegotiationTests {
    @Test func acceptChoosesTheFormatAndVaries() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            harness.serve("/a.png", try Fixtures.png(40, 30), contentType: "image/png")
            let path = harness.signedPath("w:20", source: "/a.jpg")
            let browser = try await harness.get(path, headers: [("Accept", "image/avif,image/webp,image/*,*/*;q=0.8")])
            #expect(browser.header("Content-Type") == "image/avif")
            #expect(browser.header("Vary") == "Accept")
            let avif = try CodersManager.shared.decode(browser.body, options: ImageDecodeOptions())
            #expect(avif.format == .avif && avif.pixelWidth == 20 && avif.pixelHeight == 15)
            let older = try await harness.get(path, headers: [("Accept", "image/webp,image/*,*/*;q=0.8")])
            #expect(older.header("Content-Type") == "image/webp")
            #expect(older.header("Vary") == "Accept")
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
            // Three buckets for one source (avif, webp and the source's own format), and two for the others.
            #expect(harness.proxy.statistics.snapshot.encodes == 5)
        }
    }

    /// imgproxy never negotiates AVIF for an animation: a browser listing AVIF and WebP gets an animated WebP,
    /// one listing only AVIF the source's animated GIF; stills still get AVIF.
    @Test func animationsAreNotNegotiatedToAVIF() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/anim.gif", try Fixtures.animatedGIF(12, 7), contentType: "image/gif")
            let path = harness.signedPath("w:6", source: "/anim.gif")
            let browser = try await harness.get(path, headers: [("Accept", "image/avif,image/webp,*/*")])
            #expect(browser.header("Content-Type") == "image/webp")
            let animated = try browser.image()
            #expect(animated.frameCount > 1)
            let avifOnly = try await harness.get(path, headers: [("Accept", "image/avif,*/*")])
            #expect(avifOnly.header("Content-Type") == "image/gif")
            #expect(try avifOnly.image().frameCount == animated.frameCount)
        }
    }

    @Test func avifNegotiationCanBeTurnedOffAlone() async throws {
        let configuration = ProxyHarness.configuration { $0.responses.negotiatesAVIF = false }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let path = harness.signedPath("w:20", source: "/a.jpg")
            let browser = try await harness.get(path, headers: [("Accept", "image/avif,image/webp,*/*")])
            #expect(browser.header("Content-Type") == "image/webp")
            #expect(browser.header("Vary") == "Accept")
            let named = try await harness.get(harness.signedPath("w:20/f:avif", source: "/a.jpg"))
            #expect(named.header("Content-Type") == "image/avif")
        }
    }

    @Test func aMaxBytesLimitIsMetByAVIFToo() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/big.jpg", try Fixtures.jpeg(400, 300))
            let full = try await harness.get(harness.signedPath("w:300/f:avif/q:100", source: "/big.jpg"))
            let limit = full.body.count / 2
            let capped = try await harness.get(harness.signedPath("w:300/f:avif/q:100/mb:\(limit)", source: "/big.jpg"))
            #expect(capped.status == 200 && capped.header("Content-Type") == "image/avif")
            #expect(capped.body.count <= limit)
            #expect(try CodersManager.shared.decode(capped.body, options: ImageDecodeOptions()).pixelWidth == 300)
        }
    }

    @Test func negotiationCanBeTurnedOff() async throws {
        let configuration = ProxyHarness.configuration { $0.responses.negotiatesFormat = false }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            let answer = try await harness.get(harness.signedPath("w:20", source: "/a.jpg"),
                                               headers: [("Accept", "image/webp")])
            #expect(answer.header("Content-Type") == "image/jpeg")
            #expect(answer.header("Vary") == nil)
        }
    }

    /// imgproxy's `IMGPROXY_ENFORCE_*`: the negotiated format wins over the URL's (not AVIF or JPEG XL for an
    /// animation); `IMGPROXY_AUTO_JXL`: JPEG XL before AVIF and WebP.
    @Test func enforcedAndJPEGXLNegotiation() async throws {
        let configuration = ProxyHarness.configuration {
            $0.responses.negotiation = ImageProxyConfiguration.Negotiation(webp: .enforced, avif: .enforced, jxl: .preferred)
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/a.jpg", try Fixtures.jpeg(40, 30))
            harness.serve("/anim.gif", try Fixtures.animatedGIF(12, 7), contentType: "image/gif")
            let named = harness.signedPath("w:20/f:png", source: "/a.jpg")
            let cases: [(String, String, String)] = [
                (named, "image/avif,image/webp", "image/avif"), (named, "image/webp", "image/webp"),
                (named, "image/jxl", "image/png"), (named, "*/*", "image/png"),
                (harness.signedPath("w:20", source: "/a.jpg"), "image/jxl,image/avif", "image/jxl"),
                (harness.signedPath("f:png", source: "/anim.gif"), "image/avif,image/webp", "image/webp"),
                (harness.signedPath("f:png", source: "/anim.gif"), "image/avif", "image/png"),
            ]
            for (path, accept, type) in cases {
                let answer = try await harness.get(path, headers: [("Accept", accept)])
                #expect(answer.header("Content-Type") == type, "\(path) Accept: \(accept)")
                #expect(answer.header("Vary") == "Accept")
            }
        }
    }

    @Test func formatChoiceFollowsImgproxysOrder() {
        typealias Negotiation = ImageProxyConfiguration.Negotiation
        let off = Negotiation(webp: .off, avif: .off, jxl: .off)
        #expect(FormatChoice(explicit: nil, accept: "image/webp", negotiation: off).format == nil)
        #expect(!FormatChoice(explicit: nil, accept: "image/webp", negotiation: off).dependsOnAccept)
        let auto = Negotiation(webp: .preferred, avif: .preferred, jxl: .preferred)
        let all = FormatChoice(explicit: nil, accept: "image/jxl,image/avif,image/webp", negotiation: auto)
        #expect(all.format == .jxl && all.animationFormat == .webp && all.keyComponent == "jxl+animation:webp")
        let named = FormatChoice(explicit: .png, accept: "image/webp", negotiation: auto)
        #expect(named.format == .png && !named.dependsOnAccept && named.keyComponent == "png")
        let enforced = FormatChoice(explicit: .png, accept: "image/avif", negotiation: Negotiation(avif: .enforced))
        #expect(enforced.format == .avif && enforced.animationFormat == .png && enforced.requested == .png)
        #expect(enforced.resolved(source: .gif, animated: true) == .png)
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
