import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// `/info`'s options: the table (every name once, each option in the key), presets, presets-only mode and the
/// allow-list, and over HTTP the signature, expiry and the result cache.
@Suite struct InfoOptionsTests {
    /// A non-default sample of every info option (a new option without one fails here).
    static let samples: [String: String] = [
        "size": "s:0", "format": "f:0", "dimensions": "d:0", "video_meta": "vm:0", "colorspace": "cs:1", "bands": "b:1",
        "sample_format": "sf:1", "pages_number": "pn:1", "page": "pg:2", "video_thumbnail_second": "vts:3.5",
        "video_thumbnail_keyframes": "vtk:1", "exif": "exif:1:1", "iptc": "iptc:0", "xmp": "xmp:0", "alpha": "a:1:1",
        "crop": "c:10:20:sm", "palette": "p:16", "average": "avg:1:0", "dominant_colors": "dc:1:1", "blurhash": "bh:4:3",
        "thumb_hash": "th:1", "perceptual_hash": "ph:1", "calc_hashsums": "chs:sha256:md5",
        "hashsum": "hs:md5:0123456789abcdef0123456789abcdef", "cachebuster": "cb:v2", "expires": "exp:4102444800",
    ]

    @Test func everyOptionHasASampleAndItsOwnKey() throws {
        let names = InfoOptionTable.all.flatMap(\.names)
        #expect(Set(names).count == names.count)
        #expect(Set(InfoOptionTable.all.map { $0.names[0] }) == Set(Self.samples.keys))
        let parser = InfoOptionsParser()
        let plain = InfoOptionTable.key(source: "http://a/b.jpg", options: try parser.options([]))
        #expect(plain == "info|http://a/b.jpg|")
        for (name, sample) in Self.samples {
            let key = InfoOptionTable.key(source: "http://a/b.jpg", options: try parser.options([Substring(sample)]))
            // `expires` is checked per request and stays out of the key, as processing's.
            #expect((key == plain) == (name == "expires"), "\(name): \(key)")
        }
        // Full and short names give the same key.
        let long = try parser.options(["blurhash:4:3", "thumb_hash:1"]), short = try parser.options(["bh:4:3", "th:1"])
        #expect(InfoOptionTable.key(source: "s", options: long) == InfoOptionTable.key(source: "s", options: short))
        #expect(InfoOptionTable.key(source: "s", options: long) == "info|s|bh:4:3/th:1")
    }

    /// The `default` preset first, then the URL's own; a preset's options are not held to the allow-list, the
    /// URL's are (403, as imgproxy's forbidden option).
    @Test func presetsAndTheAllowList() throws {
        let parser = InfoOptionsParser(presets: ["default": "xmp:0/bh:4:3", "slow": "th:1/ph:1"], allowed: ["pr", "s"])
        let options = try parser.options(["pr:slow", "s:0"])
        #expect(!options.xmp && options.blurHashX == 4 && options.thumbHash && options.perceptualHash && !options.size)
        #expect(throws: ProxyError.forbidden("info option 'size' is not allowed here (IMGPROXY_ALLOWED_INFO_OPTIONS)")) {
            try parser.options(["size:0"])
        }
        #expect(throws: ProxyError.badRequest("unknown info preset 'none'")) { try parser.options(["pr:none"]) }
        let looping = InfoOptionsParser(presets: ["a": "pr:b", "b": "pr:a"])
        #expect(throws: ProxyError.badRequest("info presets nest deeper than 4 levels")) { try looping.options(["pr:a"]) }
        #expect(throws: ProxyError.badRequest("info preset 'bad': unknown info option 'w'")) {
            try InfoOptionsParser(presets: ["bad": "w:10"]).validatePresets()
        }
        let only = InfoOptionsParser(presets: ["slow": "th:1"], onlyPresets: true)
        #expect(try only.options(["slow"]).thumbHash)
        #expect(throws: ProxyError.badRequest("unknown info preset 'th'")) { try only.options(["th:1"]) }
    }

    /// Over HTTP: info presets-only mode from the configuration (and by default from processing's), signatures
    /// required, an expired URL 404, and a second request answered from the cache without fetching again.
    @Test func signedCachedAndPresets() async throws {
        let configuration = ProxyHarness.configuration {
            $0.info = ImageProxyConfiguration.Info(presets: ["hashes": "th:1/s:0/f:0/d:0"], onlyPresets: true)
        }
        let png = try InfoSamples.gradient()
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/g.png", png)
            let first = try await harness.get("/info" + harness.signedPath("hashes", source: "/g.png"))
            #expect(first.text == #"{"thumb_hash":"DB180E1D9A6076877088888688678887F3A40FF788"}"#)
            let second = try await harness.get("/info" + harness.signedPath("hashes", source: "/g.png"))
            #expect(second.text == first.text)
            #expect(harness.origin.requestCount(for: "/g.png") == 1)
            let unsigned = try await harness.get("/info/_" + ProxyHarness.plainPart("hashes", source: harness.origin.url("/g.png").absoluteString))
            #expect(unsigned.status == 403)
            let forged = try await harness.get("/info/AAAA" + ProxyHarness.plainPart("hashes", source: harness.origin.url("/g.png").absoluteString))
            #expect(forged.status == 403)
            #expect(try await harness.get("/info" + harness.signedPath("th:1", source: "/g.png")).status == 400)
        }
        let expiring = ProxyHarness.configuration()
        try await ProxyHarness.with(expiring) { harness in
            harness.serve("/g.png", png)
            let expired = try await harness.get("/info" + harness.signedPath("exp:1000", source: "/g.png"))
            #expect(expired.status == 404)
            #expect(harness.origin.requestCount(for: "/g.png") == 0)
        }
    }
}
