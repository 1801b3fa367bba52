import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's watermark options over real HTTP: the image from a URL or from text, its size, rotation and
/// shadow; the operator's image is an opaque red 10×10.
@Suite struct ProxyWatermarkOptionTests {
    static func solid(_ width: Int, _ height: Int, _ rgb: (UInt8, UInt8, UInt8)) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { out in
            for i in stride(from: 0, to: out.count, by: 4) { (out[i], out[i + 1], out[i + 2], out[i + 3]) = (rgb.0, rgb.1, rgb.2, 255) }
        }
    }

    static func isColour(_ image: Image, _ x: Int, _ y: Int, _ rgb: (UInt8, UInt8, UInt8)) -> Bool {
        let pixel = image.pixels.rgba8(x: x, y: y)
        return pixel[0] == rgb.0 && pixel[1] == rgb.1 && pixel[2] == rgb.2
    }

    static func withMarks(_ body: (ProxyHarness, (String) async throws -> ProxyHarness.Answer) async throws -> Void)
        async throws {
        let configuration = ProxyHarness.configuration { $0.processing.watermark = Image(pixels: solid(10, 10, (255, 0, 0))) }
        try await ProxyOptionTests.withPhoto(configuration) { harness in
            harness.serve("/mark.png", try Fixtures.encode(Image(pixels: solid(20, 8, (0, 0, 255))), .png),
                          contentType: "image/png")
            try await body(harness) { options in
                try await harness.get(harness.signedPath("w:100/" + options, source: "/photo.jpg", ext: "png"))
            }
        }
    }

    static func encoded(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

    @Test func aURLsImageReplacesTheOperatorsAndIsSizedTurnedAndShadowed() async throws {
        try await Self.withMarks { harness, get in
            let url = Self.encoded(harness.origin.url("/mark.png").absoluteString)
            let blue = try await get("wm:1:nowe/wmu:\(url)").image()
            #expect(Self.isColour(blue, 0, 0, (0, 0, 255)) && Self.isColour(blue, 19, 7, (0, 0, 255)))
            #expect(!Self.isColour(blue, 20, 2, (0, 0, 255)) && !Self.isColour(blue, 2, 8, (0, 0, 255)))
            let sized = try await get("wm:1:nowe/wmu:\(url)/wms:40:0").image()
            #expect(Self.isColour(sized, 39, 15, (0, 0, 255)) && !Self.isColour(sized, 40, 2, (0, 0, 255)))
            let turned = try await get("wm:1:nowe/wmu:\(url)/wmr:90").image()
            #expect(Self.isColour(turned, 7, 19, (0, 0, 255)) && !Self.isColour(turned, 8, 2, (0, 0, 255)))
            let scaled = try await get("wm:1:nowe:0:0:0.5/wms:90:90").image()
            #expect(Self.isColour(scaled, 37, 37, (255, 0, 0)) && !Self.isColour(scaled, 40, 40, (255, 0, 0)),
                    "watermark_size counts only without watermark's scale")
            let operatorSized = try await get("wm:1:nowe/wms:30:30").image()
            #expect(Self.isColour(operatorSized, 29, 29, (255, 0, 0)) && !Self.isColour(operatorSized, 31, 31, (255, 0, 0)))
        }
    }

    @Test func aShadowDarkensAroundTheMark() async throws {
        try await Self.withMarks { _, get in
            let plain = try await get("wm:1:ce").image(), shadowed = try await get("wm:1:ce/wmsh:3").image()
            #expect(Self.isColour(shadowed, 50, 37, (255, 0, 0)), "the mark itself stays")
            let (before, after) = (plain.pixels.rgba8(x: 50, y: 30), shadowed.pixels.rgba8(x: 50, y: 30))
            #expect(Int(after[0]) + Int(after[1]) + Int(after[2]) < Int(before[0]) + Int(before[1]) + Int(before[2]))
        }
    }

    @Test func textIsDrawnAndWinsOverTheURL() async throws {
        try await Self.withMarks { harness, get in
            let text = Self.encoded("<span foreground=\"#00ff00\" size=\"x-large\">Hi</span>")
            let url = Self.encoded(harness.origin.url("/mark.png").absoluteString)
            let image = try await get("wm:1:ce/wmt:\(text)/wmu:\(url)").image()
            var green = 0, blue = 0
            for y in 0..<image.pixelSize.height {
                for x in 0..<image.pixelSize.width {
                    if Self.isColour(image, x, y, (0, 255, 0)) { green += 1 }
                    if Self.isColour(image, x, y, (0, 0, 255)) { blue += 1 }
                }
            }
            #expect(green > 20 && blue == 0)
            let nothing = try await get("wmt:\(text)").image()
            let plain = try await get("fl:0").image()
            #expect(nothing.pixels == plain.pixels, "without watermark: nothing is drawn")
        }
    }

    @Test func badWatermarksAreRefused() async throws {
        try await Self.withMarks { harness, get in
            let bad = try await get("wm:1/wmt:\(Self.encoded("<b>unclosed"))")
            #expect(bad.status == 400 && bad.text.contains("watermark_text: invalid Pango markup"))
            let missing = try await get("wm:1/wmu:\(Self.encoded(harness.origin.url("/none.png").absoluteString))")
            #expect(missing.status == 404)
            let scheme = try await get("wm:1/wmu:\(Self.encoded("ftp://example.com/a.png"))")
            #expect(scheme.status == 404 && scheme.text.contains("source not allowed: scheme 'ftp'"),
                    "the sources' policy, as for the image's own URL")
            let notText = try await get("wm:1/wmu:!!!")
            #expect(notText.status == 400 && notText.text.contains("wmu takes base64url-encoded UTF-8 text"))
        }
    }
}
