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
        var options = ProcessingOptions()
        #expect(throws: ProxyError.badRequest(message)) {
            try OptionsParser().apply(text.split(separator: "/"), to: &options)
        }
    }
}
