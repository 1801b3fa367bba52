import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// imgproxy Pro's `style` (CSS for SVG sources) and `dpi` (the result's resolution) over real HTTP.
@Suite struct ProxyStyleAndDPITests {
    static let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\"><rect width=\"20\" height=\"10\" fill=\"black\"/></svg>".utf8)

    @Test func styleReachesTheSVGBeforeItIsSanitisedAndDrawn() async throws {
        try await ProxyHarness.with(ProxyHarness.configuration()) { harness in
            harness.serve("/a.svg", Self.svg, contentType: "image/svg+xml")
            func pixel(_ options: String) async throws -> [UInt8] {
                let answer = try await harness.get(harness.signedPath(options, source: "/a.svg", ext: "png"))
                #expect(answer.status == 200, "\(options): \(answer.text)")
                return try answer.image().pixels.rgba8(x: 10, y: 5)
            }
            let green = Base64URL.encode(Array("rect { fill: #00ff00 }".utf8))
            #expect(try await pixel("w:20") == [0, 0, 0, 255])
            #expect(try await pixel("w:20/st:\(green)") == [0, 255, 0, 255])
            let remote = Base64URL.encode(Array("@import url(http://127.0.0.1:1/x.css); rect { fill: #00ff00 }".utf8))
            // Drawn without a base document, librsvg fetches nothing; the rule beside the import still holds.
            #expect(try await pixel("w:20/st:\(remote)") == [0, 255, 0, 255])
            let asSVG = try await harness.get(harness.signedPath("st:\(green)", source: "/a.svg", ext: "svg"))
            #expect(String(decoding: asSVG.body, as: UTF8.self).contains("<style>rect { fill: #00ff00 }</style>"))
            let sanitised = try await harness.get(harness.signedPath("st:\(remote)", source: "/a.svg", ext: "svg"))
            #expect(sanitised.status == 200 && !String(decoding: sanitised.body, as: UTF8.self).contains("@import"),
                    "answered as SVG, a sheet that fetches is dropped whole by the sanitiser")
        }
    }

    @Test func styleLeavesRastersAlone() async throws {
        try await ProxyOptionTests.withPhoto { harness in
            let css = Base64URL.encode(Array("* { fill: red }".utf8))
            let styled = try await harness.get(harness.signedPath("w:50/st:\(css)", source: "/photo.jpg", ext: "png"))
            let plain = try await harness.get(harness.signedPath("w:50", source: "/photo.jpg", ext: "png"))
            #expect(styled.status == 200 && styled.body == plain.body)
        }
    }

    @Test func dpiIsWrittenInJPEGAndPNG() async throws {
        try await ProxyOptionTests.withPhoto { harness in
            let jpeg = [UInt8](try await harness.get(harness.signedPath("w:50/dpi:300", source: "/photo.jpg", ext: "jpg")).body)
            // JFIF: APP0 length, "JFIF\0", version, then units and the two densities.
            #expect(jpeg[2...3] == [0xFF, 0xE0] && jpeg[13] == 1 && jpeg[14...17] == [0x01, 0x2C, 0x01, 0x2C])
            let plain = [UInt8](try await harness.get(harness.signedPath("w:50/dpi:0", source: "/photo.jpg", ext: "jpg")).body)
            #expect(plain[13] == 0 && plain[14...17] == [0, 1, 0, 1], "0 leaves the encoder's")
            let png = try await harness.get(harness.signedPath("w:50/dpi:300", source: "/photo.jpg", ext: "png")).body
            #expect(PNGChunks.types(in: png).contains("pHYs"))
        }
    }

    @Test(arguments: [
        ("dpi:70000", "dpi takes a number from 0.0 to 65535.0, not '70000'"),
        ("dpi:-1", "dpi takes a number from 0.0 to 65535.0, not '-1'"),
        ("st:!!", "style takes base64url-encoded UTF-8 CSS"),
    ])
    func badArgumentsAreRefused(text: String, message: String) {
        expectRefused(text, message)
    }
}

/// imgproxy Pro's `resizing_algorithm` over real HTTP, on one-pixel stripes that each kernel treats its own way.
@Suite struct ProxyResizingAlgorithmTests {
    static let stripes = PixelBuffer(width: 40, height: 8) { out in
        for i in stride(from: 0, to: out.count, by: 4) {
            let value: UInt8 = (i / 4) % 2 == 0 ? 0 : 255
            (out[i], out[i + 1], out[i + 2], out[i + 3]) = (value, value, value, 255)
        }
    }

    @Test func eachKernelResizes() async throws {
        try await ProxyHarness.with(ProxyHarness.configuration()) { harness in
            harness.serve("/s.png", try Fixtures.encode(Image(pixels: Self.stripes), .png), contentType: "image/png")
            func row(_ options: String) async throws -> [UInt8] {
                let answer = try await harness.get(harness.signedPath("w:20/" + options, source: "/s.png", ext: "png"))
                #expect(answer.status == 200, "\(options): \(answer.text)")
                let image = try answer.image()
                return (0..<image.pixelSize.width).map { image.pixels.rgba8(x: $0, y: 2)[0] }
            }
            // Linear averages each pair; nearest picks one of the two (libvips: the second).
            let linear = try await row("ra:linear")
            // The stretched triangle reaches past the edges, where the edge pixel repeats (as libvips extends).
            #expect(linear[1..<19].allSatisfy { $0 == 128 } && linear.first == 96 && linear.last == 159, "\(linear)")
            #expect(try await row("ra:nearest") == Array(repeating: 255, count: 20))
            let lanczos = try await row("ra:lanczos3")
            #expect(lanczos.allSatisfy { (100...155).contains($0) }, "\(lanczos)")
            // imgproxy's default kernel is lanczos3, and so is ours.
            #expect(try await row("fl:0") == lanczos)
        }
    }

    /// A JPEG is decoded with DCT scaling to the smallest size still at least the result's (libvips' shrink on
    /// load), then resized with lanczos3: 400×300 into 90 px wide is decoded at 1/4 (100×75), then 100×75 → 90×68.
    @Test func theDefaultResizeFollowsTheJPEGShrinkOnLoad() async throws {
        let jpeg = try Fixtures.jpeg(400, 300)
        var atQuarter = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 75))
        atQuarter.preserveAspectRatio = false
        let shrunk = try CodersManager.shared.decode(jpeg, options: atQuarter)
        #expect(shrunk.pixelSize == PixelSize(width: 100, height: 75))
        let expected = Resampler.resample(shrunk.pixels, to: PixelSize(width: 90, height: 68), kernel: .lanczos3)
        try await ProxyHarness.with(ProxyHarness.configuration()) { harness in
            harness.serve("/p.jpg", jpeg, contentType: "image/jpeg")
            let answer = try await harness.get(harness.signedPath("w:90", source: "/p.jpg", ext: "png"))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try answer.image().pixels == expected)
        }
    }

    @Test func badAlgorithmsAreRefused() {
        expectRefused("ra:area", "resizing_algorithm takes nearest, linear, cubic, lanczos2 or lanczos3, not 'area'")
    }
}
