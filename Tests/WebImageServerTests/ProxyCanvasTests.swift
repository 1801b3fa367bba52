import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// extend, extend_aspect_ratio, padding, flip and pixelate over real HTTP, with pixel probes.
@Suite struct ProxyCanvasTests {
    static func answer(_ options: String, ext: String = "png") async throws -> Image {
        var image: Image?
        try await ProxyOptionTests.withPhoto { harness in
            let answer = try await harness.get(harness.signedPath(options, source: "/photo.jpg", ext: ext))
            #expect(answer.status == 200, "\(options): \(answer.text)")
            image = try answer.image()
        }
        return try #require(image)
    }

    static func alpha(_ image: Image, _ x: Int, _ y: Int) -> UInt8 { image.pixels.rgba8(x: x, y: y)[3] }

    /// 300×225 extended to 300×300: 38 transparent rows above and 37 below in PNG; with a background, those
    /// rows take its colour.
    @Test func extendPlacesTheImageByGravity() async throws {
        let centred = try await Self.answer("rs:fit:300:300:0:1")
        #expect(centred.pixelSize == PixelSize(width: 300, height: 300))
        #expect(Self.alpha(centred, 150, 37) == 0 && Self.alpha(centred, 150, 38) == 255)
        #expect(Self.alpha(centred, 150, 262) == 255 && Self.alpha(centred, 150, 263) == 0)
        let top = try await Self.answer("rs:fit:300:300/ex:1:no")
        #expect(Self.alpha(top, 150, 224) == 255 && Self.alpha(top, 150, 225) == 0)
        let filled = try await Self.answer("rs:fit:300:300:0:1/bg:00ff00")
        #expect(filled.pixels.rgba8(x: 150, y: 10) == [0, 255, 0, 255])
    }

    @Test func extendAspectRatioAndPadding() async throws {
        let square = try await Self.answer("rs:fit:800:800/exar:1:we")
        #expect(square.pixelSize == PixelSize(width: 400, height: 400))
        #expect(Self.alpha(square, 200, 49) == 0 && Self.alpha(square, 200, 50) == 255)
        let padded = try await Self.answer("w:200/pd:10:20")
        #expect(padded.pixelSize == PixelSize(width: 240, height: 170))
        #expect(Self.alpha(padded, 19, 80) == 0 && Self.alpha(padded, 20, 80) == 255)
        #expect(Self.alpha(padded, 120, 9) == 0 && Self.alpha(padded, 120, 10) == 255)
        #expect(Self.alpha(padded, 220, 80) == 0 && Self.alpha(padded, 120, 160) == 0)
    }

    /// The fixture's red grows from left to right: a horizontal flip reverses it.
    @Test func flipMirrors() async throws {
        let plain = try await Self.answer("w:100"), flipped = try await Self.answer("w:100/fl:1")
        #expect(plain.pixels.rgba8(x: 5, y: 30)[0] < plain.pixels.rgba8(x: 94, y: 30)[0])
        #expect(flipped.pixels.rgba8(x: 5, y: 30)[0] > flipped.pixels.rgba8(x: 94, y: 30)[0])
        #expect(abs(Int(flipped.pixels.rgba8(x: 5, y: 30)[0]) - Int(plain.pixels.rgba8(x: 94, y: 30)[0])) <= 2)
    }

    /// Every 10×10 square from the top-left is one colour, and the squares differ along the gradient.
    @Test func pixelateMakesSquares() async throws {
        let image = try await Self.answer("w:100/pix:10")
        #expect(image.pixelSize == PixelSize(width: 100, height: 75))
        for (x, y) in [(0, 0), (10, 20), (90, 70)] {
            let first = image.pixels.rgba8(x: x, y: y)
            for dy in 0..<min(10, 75 - y) {
                for dx in 0..<10 { #expect(image.pixels.rgba8(x: x + dx, y: y + dy) == first, "\(x + dx),\(y + dy)") }
            }
        }
        #expect(image.pixels.rgba8(x: 0, y: 0) != image.pixels.rgba8(x: 90, y: 0))
    }

    /// imgproxy's `Content-Disposition`: the source's name or `filename`, the result's extension, `attachment`
    /// on request; nothing in a name can break the header.
    @Test func contentDisposition() async throws {
        try await ProxyOptionTests.withPhoto { harness in
            func disposition(_ options: String, ext: String? = nil) async throws -> String? {
                try await harness.get(harness.signedPath(options, source: "/photo.jpg", ext: ext)).header("Content-Disposition")
            }
            #expect(try await disposition("w:10") == "inline; filename=\"photo.jpg\"")
            #expect(try await disposition("w:10", ext: "webp") == "inline; filename=\"photo.webp\"")
            #expect(try await disposition("w:10/fn:cat/att:1") == "attachment; filename=\"cat.jpg\"")
            let encoded = Base64URL.encode(Array("a \"b\"\r\nX-Evil: 1 é".utf8))
            #expect(try await disposition("w:10/fn:\(encoded):1")
                    == "inline; filename=\"a %22b%22%0D%0AX-Evil: 1 %C3%A9.jpg\"")
            let bad = try await harness.get(harness.signedPath("fn:!!!:1", source: "/photo.jpg"))
            #expect(bad.status == 400)
        }
    }

    /// skip_processing answers a listed source format as it came when the result would be in that format
    /// (none asked, negotiated, or the same one), and processes it otherwise.
    @Test func skipProcessingAnswersTheSourceBytes() async throws {
        try await ProxyOptionTests.withPhoto { harness in
            let source = try Fixtures.jpeg(400, 300)
            let skipped = try await harness.get(harness.signedPath("w:100/skp:jpg", source: "/photo.jpg"),
                                                headers: [("Accept", "image/webp")])
            #expect(skipped.body == source && skipped.header("Content-Type") == "image/jpeg")
            let same = try await harness.get(harness.signedPath("w:100/skp:jpeg:png/f:jpg", source: "/photo.jpg"))
            #expect(same.body == source)
            let other = try await harness.get(harness.signedPath("w:100/skp:jpg/f:png", source: "/photo.jpg"))
            let otherWidth = try other.image().pixelSize.width
            #expect(other.header("Content-Type") == "image/png" && otherWidth == 100)
            let unlisted = try await harness.get(harness.signedPath("w:100/skp:png", source: "/photo.jpg"))
            let unlistedWidth = try unlisted.image().pixelSize.width
            #expect(unlistedWidth == 100)
            let bad = try await harness.get(harness.signedPath("skp:xyz", source: "/photo.jpg"))
            #expect(bad.status == 400)
        }
    }

    /// The per-URL security options: refused unless the operator allows them, then only lowering the limits.
    @Test func securityOptionsOnlyWhereAllowed() async throws {
        try await ProxyOptionTests.withPhoto { harness in
            // 403, as imgproxy answers every one of them without IMGPROXY_ALLOW_SECURITY_OPTIONS.
            for option in ["msr:1", "msfs:100", "maf:1", "mafr:1", "mrd:100", "max_src_resolution:1"] {
                let refused = try await harness.get(harness.signedPath(option, source: "/photo.jpg"))
                #expect(refused.status == 403 && refused.text.contains("IMGPROXY_ALLOW_SECURITY_OPTIONS"), "\(option)")
            }
        }
        let allowing = ProxyHarness.configuration { $0.limits.allowsSecurityOptions = true }
        try await ProxyOptionTests.withPhoto(allowing) { harness in
            func answer(_ options: String) async throws -> ProxyHarness.Answer {
                try await harness.get(harness.signedPath(options, source: "/photo.jpg"))
            }
            let capped = try await answer("w:300/mrd:100")
            #expect(try capped.image().pixelSize == PixelSize(width: 100, height: 75))
            #expect(try await answer("msr:0.1").status == 422)
            #expect(try await answer("msr:0.2").status == 200)
            #expect(try await answer("msfs:100").status == 422)
            // A still has no frames to count: the animation limits do not apply.
            #expect(try await answer("maf:1/mafr:0.01").status == 200)
        }
    }

    /// trim cuts the border of the top-left pixel's colour (or the given one), before the resize; equal sides
    /// keep the smaller margin on both.
    @Test func trimCutsTheBorder() async throws {
        // White 100×80 with a red 40×40 square at (20, 10).
        let pixels = PixelBuffer(width: 100, height: 80) { out in
            for y in 0..<80 {
                for x in 0..<100 {
                    let i = (y * 100 + x) * 4, red = (20..<60).contains(x) && (10..<50).contains(y)
                    out[i] = 255
                    out[i + 1] = red ? 0 : 255
                    out[i + 2] = red ? 0 : 255
                    out[i + 3] = 255
                }
            }
        }
        try await ProxyHarness.with { harness in
            harness.serve("/framed.png", try Fixtures.encode(Image(pixels: pixels), .png))
            func size(_ options: String) async throws -> PixelSize {
                try await harness.get(harness.signedPath(options, source: "/framed.png")).image().pixelSize
            }
            #expect(try await size("t:10") == PixelSize(width: 40, height: 40))
            #expect(try await size("t:10:ffffff/w:20") == PixelSize(width: 20, height: 20))
            #expect(try await size("t:10::1") == PixelSize(width: 60, height: 40))
            #expect(try await size("t:10::1:1") == PixelSize(width: 60, height: 60))
            // Nothing is red in a border of red: the whole image stays.
            #expect(try await size("t:10:ff0000") == PixelSize(width: 100, height: 80))
            let bad = try await harness.get(harness.signedPath("t:10:red", source: "/framed.png"))
            #expect(bad.status == 400)
        }
    }

    /// Smart gravity keeps the detailed part: a checkered patch at the right of a flat image, where a centred
    /// crop would keep only the flat grey.
    @Test func smartGravityKeepsTheDetail() async throws {
        let pixels = PixelBuffer(width: 400, height: 200) { out in
            for y in 0..<200 {
                for x in 0..<400 {
                    let i = (y * 400 + x) * 4, patch = x >= 300 && (60..<140).contains(y)
                    let value: UInt8 = patch ? ((x / 4 + y / 4) % 2 == 0 ? 0 : 255) : 128
                    (out[i], out[i + 1], out[i + 2], out[i + 3]) = (value, value, value, 255)
                }
            }
        }
        try await ProxyHarness.with { harness in
            harness.serve("/patch.png", try Fixtures.encode(Image(pixels: pixels), .png))
            func extremes(_ options: String, columns: Range<Int> = 0..<100) async throws -> (min: UInt8, max: UInt8) {
                let image = try await harness.get(harness.signedPath(options, source: "/patch.png")).image()
                #expect(image.pixelSize == PixelSize(width: 100, height: 100))
                let values = (0..<100).flatMap { y in columns.map { x in image.pixels.rgba8(x: x, y: y)[0] } }
                return (values.min() ?? 0, values.max() ?? 0)
            }
            // The whole source is resized before the crop, as libvips does: lanczos3 reaches 3 result pixels into
            // the patch beside the centred crop, so its last columns may see the patch's edge.
            let centred = try await extremes("rs:fill:100:100", columns: 0..<97), smart = try await extremes("rs:fill:100:100/g:sm")
            #expect(centred.min == 128 && centred.max == 128)
            #expect(smart.min < 20 && smart.max > 235)
            let cropped = try await extremes("c:100:100:sm")
            #expect(cropped.min < 20 && cropped.max > 235)
        }
    }

    /// The operator's watermark (an opaque red 10×10 here) at its gravity, tiled, scaled, and at half opacity.
    @Test func watermarkIsDrawnWhereAsked() async throws {
        let red = PixelBuffer(width: 10, height: 10) { out in
            for i in stride(from: 0, to: out.count, by: 4) { (out[i], out[i + 1], out[i + 2], out[i + 3]) = (255, 0, 0, 255) }
        }
        let configuration = ProxyHarness.configuration { $0.processing.watermark = Image(pixels: red) }
        try await ProxyOptionTests.withPhoto(configuration) { harness in
            func image(_ options: String) async throws -> Image {
                try await harness.get(harness.signedPath("w:100/" + options, source: "/photo.jpg", ext: "png")).image()
            }
            func isRed(_ image: Image, _ x: Int, _ y: Int) -> Bool {
                let pixel = image.pixels.rgba8(x: x, y: y)
                return pixel[0] == 255 && pixel[1] == 0 && pixel[2] == 0
            }
            let corner = try await image("wm:1:nowe")
            #expect(isRed(corner, 0, 0) && isRed(corner, 9, 9) && !isRed(corner, 10, 10) && !isRed(corner, 50, 40))
            let offset = try await image("wm:1:soea:5:5")
            #expect(isRed(offset, 94, 69) && !isRed(offset, 95, 70) && !isRed(offset, 84, 59))
            let tiled = try await image("wm:1:re")
            #expect([(5, 5), (45, 37), (95, 70)].allSatisfy { isRed(tiled, $0.0, $0.1) })
            let scaled = try await image("wm:1:ce:0:0:0.5")
            // Fitted into 50×38 (half of 100×75): 38×38, centred at (32, 19) (63 / 2 rounds half to even).
            #expect(isRed(scaled, 32, 19) && isRed(scaled, 69, 56) && !isRed(scaled, 31, 19) && !isRed(scaled, 70, 56))
            let faint = try await image("wm:0.5:nowe")
            let plain = try await image("fl:0")
            let blended = faint.pixels.rgba8(x: 2, y: 2), under = plain.pixels.rgba8(x: 2, y: 2)
            #expect(abs(Int(blended[0]) - (255 + Int(under[0]) + 1) / 2) <= 1)
            #expect(abs(Int(blended[1]) - (Int(under[1]) + 1) / 2) <= 1)
        }
    }

    /// The operator's fallback image answers, processed the same way, when the source is missing or not an
    /// image, with the configured status and TTL; a bad request stays an error.
    @Test func fallbackImageStandsInForAMissingSource() async throws {
        let configuration = ProxyHarness.configuration {
            $0.processing.fallbackImage = try? Fixtures.png(40, 20)
            $0.responses.fallbackStatus = 404
            $0.responses.fallbackTTL = 30
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/text", Data("not an image".utf8), contentType: "text/plain")
            let missing = try await harness.get(harness.signedPath("w:20", source: "/nothing.jpg"))
            #expect(missing.status == 404 && missing.header("Content-Type") == "image/png")
            #expect(try missing.image().pixelSize == PixelSize(width: 20, height: 10))
            #expect(missing.header("Cache-Control") == "public, max-age=30, immutable")
            let junk = try await harness.get(harness.signedPath("w:10/f:webp", source: "/text"))
            #expect(junk.status == 404 && junk.header("Content-Type") == "image/webp")
            let bad = try await harness.get(harness.signedPath("w:-1", source: "/nothing.jpg"))
            #expect(bad.status == 400)
        }
    }
}
