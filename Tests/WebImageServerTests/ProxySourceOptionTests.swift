import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// Options about what is taken from the source: `strip_color_profile`, `enforce_thumbnail` and `raw`, with the
/// operator's defaults (`IMGPROXY_STRIP_COLOR_PROFILE`, `IMGPROXY_ENFORCE_THUMBNAIL`).
@Suite struct ProxySourceOptionTests {
    /// 8×8 of (200, 100, 50) in Adobe RGB, as a PNG carrying that profile: sRGB (227, 100, 42) by lcms2.
    static func adobePNG() throws -> Data {
        let pixels = PixelBuffer(width: 8, height: 8, bytes: [UInt8]((0..<64).flatMap { _ in [200, 100, 50, 255] }))
        return try Fixtures.encode(Image(frames: [ImageFrame(pixels: pixels)], iccProfile: TestProfiles.adobeRGB), .png)
    }

    static func preserved(_ data: Data) throws -> Image {
        var options = ImageDecodeOptions()
        options.colorSpace = .preserve
        return try CodersManager.shared.decode(data, options: options)
    }

    static func firstPixel(_ image: Image) -> [Int] {
        image.pixels.converted(to: .rgba8).withUnsafeBytes { Array($0.prefix(3)).map(Int.init) }
    }

    @Test func aColourProfileIsConvertedUnlessKept() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/adobe.png", try Self.adobePNG(), contentType: "image/png")
            let converted = try Self.preserved(try await harness.get(harness.signedPath("f:png", source: "/adobe.png")).body)
            #expect(converted.iccProfile == nil)
            #expect(zip(Self.firstPixel(converted), [227, 100, 42]).allSatisfy { abs($0 - $1) <= 1 })
            for format in ["png", "jpg", "webp"] {
                let answer = try await harness.get(harness.signedPath("scp:0/f:\(format)", source: "/adobe.png"))
                let kept = try Self.preserved(answer.body)
                #expect(kept.iccProfile == TestProfiles.adobeRGB, "\(format)")
                let tolerance = format == "png" ? 0 : 4
                #expect(zip(Self.firstPixel(kept), [200, 100, 50]).allSatisfy { abs($0 - $1) <= tolerance }, "\(format)")
            }
            // GIF carries no profile: converted, as imgproxy does.
            let gif = try Self.preserved(try await harness.get(harness.signedPath("scp:0/f:gif", source: "/adobe.png")).body)
            #expect(gif.iccProfile == nil)
            #expect(zip(Self.firstPixel(gif), [227, 100, 42]).allSatisfy { abs($0 - $1) <= 8 })
        }
    }

    @Test func theOperatorCanKeepProfilesByDefault() async throws {
        let configuration = ProxyHarness.configuration { $0.processing.stripsColorProfile = false }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/adobe.png", try Self.adobePNG(), contentType: "image/png")
            let kept = try Self.preserved(try await harness.get(harness.signedPath("f:png", source: "/adobe.png")).body)
            #expect(kept.iccProfile == TestProfiles.adobeRGB)
            let stripped = try Self.preserved(try await harness.get(harness.signedPath("scp:1/f:png", source: "/adobe.png")).body)
            #expect(stripped.iccProfile == nil)
        }
    }

    /// The HEIC is 72×72 with a 64×64 thumbnail; the AVIF 1280×720 with thumbnails of 320×180 then 160×90
    /// (libvips, and so imgproxy, takes the first listed).
    @Test func anEnforcedThumbnailIsTheSource() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/t.heic", try TestCorpus.data("heif/colors-no-alpha-thumbnail.heic"), contentType: "image/heic")
            harness.serve("/t.avif", try TestCorpus.data("avif/Tomsk_with_thumbnails.avif"), contentType: "image/avif")
            harness.serve("/p.jpg", try Fixtures.jpeg(40, 30))
            let cases: [(String, String, PixelSize)] = [
                ("f:png", "/t.heic", PixelSize(width: 72, height: 72)),
                ("eth:1/f:png", "/t.heic", PixelSize(width: 64, height: 64)),
                ("eth:1/rs:fit:32:32/f:png", "/t.heic", PixelSize(width: 32, height: 32)),
                ("eth:1/f:png", "/t.avif", PixelSize(width: 320, height: 180)),
                ("eth:1/f:png", "/p.jpg", PixelSize(width: 40, height: 30)),
            ]
            for (options, source, size) in cases {
                let answer = try await harness.get(harness.signedPath(options, source: source))
                #expect(answer.status == 200, "\(options) \(source)")
                #expect(try answer.image().pixelSize == size, "\(options) \(source)")
            }
        }
        let configuration = ProxyHarness.configuration { $0.processing.enforcesThumbnail = true }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/t.heic", try TestCorpus.data("heif/colors-no-alpha-thumbnail.heic"), contentType: "image/heic")
            #expect(try await harness.get(harness.signedPath("f:png", source: "/t.heic")).image().pixelSize.width == 64)
            #expect(try await harness.get(harness.signedPath("eth:0/f:png", source: "/t.heic")).image().pixelSize.width == 72)
        }
    }

    /// `raw` answers the source's bytes in its own format whatever else the URL asks, without the pixel checks;
    /// what is not an image is still refused (imgproxy would stream it).
    @Test func rawAnswersTheSourceAsItCame() async throws {
        let configuration = ProxyHarness.configuration { $0.limits.maxSourcePixels = 1_000 }
        try await ProxyHarness.with(configuration) { harness in
            let source = try Fixtures.jpeg(40, 30)
            harness.serve("/p.jpg", source)
            harness.serve("/page.html", Data("<html></html>".utf8), contentType: "text/html")
            #expect(try await harness.get(harness.signedPath("w:10", source: "/p.jpg")).status == 422)
            let raw = try await harness.get(harness.signedPath("raw:1/w:10/bl:5", source: "/p.jpg", ext: "webp"))
            #expect(raw.status == 200)
            #expect(raw.body == source)
            #expect(raw.header("Content-Type") == "image/jpeg")
            #expect(try await harness.get(harness.signedPath("raw:1", source: "/page.html")).status == 422)
        }
    }
}

/// imgproxy's `auto_rotate`: by default the EXIF orientation turns the image upright; `ar:0` (or the operator's
/// `IMGPROXY_AUTO_ROTATE=0`) keeps the pixels as stored.
@Suite struct ProxyAutoRotateTests {
    @Test func orientationIsAppliedUnlessTurnedOff() async throws {
        try await ProxyHarness.with { harness in
            // 40×30 stored, EXIF orientation 6: 30×40 upright.
            harness.serve("/turned.jpg", try ProxyMetadataTests.source())
            let upright = try await harness.get(harness.signedPath("w:15/f:png", source: "/turned.jpg"))
            #expect(try upright.image().pixelSize == PixelSize(width: 15, height: 20))
            let stored = try await harness.get(harness.signedPath("ar:0/w:20/f:png", source: "/turned.jpg"))
            #expect(try stored.image().pixelSize == PixelSize(width: 20, height: 15))
        }
        let configuration = ProxyHarness.configuration { $0.processing.autoRotates = false }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/turned.jpg", try ProxyMetadataTests.source())
            let stored = try await harness.get(harness.signedPath("w:20/f:png", source: "/turned.jpg"))
            #expect(try stored.image().pixelSize == PixelSize(width: 20, height: 15))
            let upright = try await harness.get(harness.signedPath("ar:1/w:15/f:png", source: "/turned.jpg"))
            #expect(try upright.image().pixelSize == PixelSize(width: 15, height: 20))
        }
    }
}
