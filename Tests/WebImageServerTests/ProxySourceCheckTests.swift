import Crypto
import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's `disable_animation` and `hashsum` over real HTTP.
@Suite struct ProxySourceCheckTests {
    @Test func disableAnimationKeepsTheFirstFrame() async throws {
        try await ProxyHarness.with(ProxyHarness.configuration()) { harness in
            harness.serve("/anim.gif", try ProxyAnimationLimitTests.fiveFrames(), contentType: "image/gif")
            let animated = try await harness.get(harness.signedPath("f:gif", source: "/anim.gif"))
            #expect(try animated.image().frameCount == 5)
            let still = try await harness.get(harness.signedPath("da:1/f:gif", source: "/anim.gif"))
            let image = try still.image()
            #expect(image.frameCount == 1 && image.pixelSize == PixelSize(width: 60, height: 40))
        }
    }

    /// Each algorithm with the source's digest answers the image; a wrong digest answers 422; `none` checks none.
    @Test func hashsumChecksTheSource() async throws {
        let source = try Fixtures.jpeg(40, 30)
        let digests: [(String, String)] = [
            ("md5", Self.hex(Insecure.MD5.hash(data: source))), ("sha1", Self.hex(Insecure.SHA1.hash(data: source))),
            ("sha256", Self.hex(SHA256.hash(data: source))), ("sha512", Self.hex(SHA512.hash(data: source))),
        ]
        try await ProxyHarness.with(ProxyHarness.configuration()) { harness in
            harness.serve("/photo.jpg", source)
            for (algorithm, digest) in digests {
                let good = try await harness.get(harness.signedPath("hs:\(algorithm):\(digest)/w:20", source: "/photo.jpg"))
                #expect(good.status == 200, "\(algorithm): \(good.text)")
                let upper = try await harness.get(harness.signedPath("hs:\(algorithm):\(digest.uppercased())/w:20",
                                                                     source: "/photo.jpg"))
                #expect(upper.status == 200, "hex digits in either case")
                let wrong = String(digest.dropLast()) + (digest.hasSuffix("0") ? "1" : "0")
                let bad = try await harness.get(harness.signedPath("hs:\(algorithm):\(wrong)/w:20", source: "/photo.jpg"))
                #expect(bad.status == 422, "\(algorithm)")
                #expect(bad.text.contains("the source's \(algorithm) digest is not the URL's hashsum"))
            }
            let none = try await harness.get(harness.signedPath("hs:none/w:20", source: "/photo.jpg"))
            #expect(none.status == 200)
        }
    }

    @Test(arguments: [
        ("hs:sha256:abc", "hashsum's sha256 digest is 64 hex digits, not 'abc'"),
        ("hs:sha1", "hashsum's sha1 digest is 40 hex digits, not ''"),
        ("hs:crc32:00", "hs takes one of md5, sha1, sha256, sha512, not 'crc32'"),
        ("hs:md5:0123456789abcdef0123456789abcdeg", "hashsum's md5 digest is 32 hex digits, not '0123456789abcdef0123456789abcdeg'"),
    ])
    func badHashsumsAreRefused(text: String, message: String) {
        expectRefused(text, message)
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}

/// imgproxy Pro's `crop_aspect_ratio` on the 400×300 fixture: the crop area shrunk (or grown, then fitted) to
/// the ratio, placed by the crop's gravity as before.
@Suite struct ProxyCropAspectRatioTests {
    @Test(arguments: [
        ("c:200:100/car:1", 100, 100), ("c:200:100/car:1:1", 200, 200), ("c:100:200/car:2", 100, 50),
        ("c:300:200/car:1:t", 300, 300), ("c:400:100/car:0.5:1", 150, 300), ("c:200:100/car:0", 200, 100),
        ("w:100/car:2", 100, 75), ("c:0.5:0.5/car:1", 150, 150),
    ])
    func cropAreas(options: String, width: Int, height: Int) async throws {
        try await ProxyOptionTests.withPhoto { harness in
            let answer = try await harness.get(harness.signedPath(options, source: "/photo.jpg"))
            #expect(answer.status == 200, "\(options): \(answer.text)")
            #expect(try answer.image().pixelSize == PixelSize(width: width, height: height), "\(options)")
        }
    }

    @Test func theGravityPlacesTheCorrectedArea() throws {
        var options = ProcessingOptions()
        try OptionsParser().apply(["c:200:100:nowe:10:20", "car:1"], to: &options)
        let plan = ProcessingPlan(source: PixelSize(width: 400, height: 300), options: options,
                                  limits: ProcessingPlan.Limits(maxSide: 10_000, maxPixels: 100_000_000))
        #expect(plan.region == PixelRect(x: 10, y: 20, width: 100, height: 100))
    }
}

/// imgproxy Pro's `fallback_image_url`: answered, processed like the source, when the source cannot be had.
@Suite struct ProxyFallbackURLTests {
    @Test func theURLsImageStandsInForAMissingSource() async throws {
        let configuration = ProxyHarness.configuration {
            $0.processing.fallbackImage = try? Fixtures.encode(Image(pixels: ProxyWatermarkOptionTests.solid(8, 8, (255, 0, 0))), .png)
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/blue.png", try Fixtures.encode(Image(pixels: ProxyWatermarkOptionTests.solid(40, 20, (0, 0, 255))), .png),
                          contentType: "image/png")
            harness.serve("/photo.jpg", try Fixtures.jpeg(40, 30))
            let fallback = ProxyWatermarkOptionTests.encoded(harness.origin.url("/blue.png").absoluteString)
            let answer = try await harness.get(harness.signedPath("w:20/fiu:\(fallback)", source: "/none.jpg", ext: "png"))
            let image = try answer.image()
            #expect(image.pixelSize == PixelSize(width: 20, height: 10) && image.pixels.rgba8(x: 5, y: 5) == [0, 0, 255, 255])
            let operatorImage = try await harness.get(harness.signedPath("w:20", source: "/none.jpg", ext: "png"))
            #expect(try operatorImage.image().pixels.rgba8(x: 1, y: 1) == [255, 0, 0, 255])
            let gone = ProxyWatermarkOptionTests.encoded(harness.origin.url("/gone.png").absoluteString)
            let neither = try await harness.get(harness.signedPath("w:20/fiu:\(gone)", source: "/none.jpg", ext: "png"))
            #expect(neither.status == 404, "the source's own error when the fallback cannot be had either")
            let good = try await harness.get(harness.signedPath("w:20/fiu:\(fallback)", source: "/photo.jpg", ext: "png"))
            #expect(try good.image().pixelSize == PixelSize(width: 20, height: 15), "a source that works is answered")
            let refused = try await harness.get(harness.signedPath("fiu:\(ProxyWatermarkOptionTests.encoded("ftp://x/a.png"))",
                                                                   source: "/photo.jpg", ext: "png"))
            #expect(refused.status == 404 && refused.text.contains("source not allowed"))
        }
    }
}

/// imgproxy Pro's `page` and `pages` on a five-frame GIF (a still result: the service keeps one frame).
@Suite struct ProxyPageTests {
    @Test func pagesAreChosenAndStacked() async throws {
        let gif = try ProxyAnimationLimitTests.fiveFrames()
        var options = ImageDecodeOptions()
        options.maxFrameCount = .max
        let decoder = try #require(try CodersManager.shared.animatedDecoder(for: gif, options: options))
        let frames = try (0..<5).map { try decoder.frame(at: $0).converted(to: .rgba8) }
        try await ProxyHarness.with(ProxyHarness.configuration()) { harness in
            harness.serve("/anim.gif", gif, contentType: "image/gif")
            func image(_ options: String) async throws -> Image {
                let answer = try await harness.get(harness.signedPath(options, source: "/anim.gif", ext: "png"))
                #expect(answer.status == 200, "\(options): \(answer.text)")
                return try answer.image()
            }
            #expect(try await image("pg:2").pixels == frames[2])
            let stacked = try await image("pg:1/pgs:3")
            #expect(stacked.pixelSize == PixelSize(width: 60, height: 120))
            #expect(stacked.pixels.cropped(to: PixelRect(x: 0, y: 40, width: 60, height: 40)) == frames[2])
            #expect(try await image("pg:4/pgs:3").pixelSize == PixelSize(width: 60, height: 40), "past the end: fewer")
            #expect(try await image("pgs:5/w:30").pixelSize == PixelSize(width: 30, height: 100), "then resized as one")
            let beyond = try await harness.get(harness.signedPath("pg:5", source: "/anim.gif", ext: "png"))
            #expect(beyond.status == 422 && beyond.text.contains("page 5 was asked of a source of 5 pages"))
        }
    }
}
