import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// SVGZ sources (gzip-compressed SVG sent without `Content-Encoding`) over HTTP: rendered as the SVG they hold
/// is, answered as that SVG (sanitized, `image/svg+xml`, never gzip bytes), and inflated within the source byte
/// limits and 100 times their size.
@Suite struct ProxySVGZSourceTests {
    static func withSVGZ(_ adjust: (inout ImageProxyConfiguration) -> Void = { _ in },
                         _ body: (ProxyHarness) async throws -> Void) async throws {
        try await ProxyHarness.with(ProxyHarness.configuration(adjust)) { harness in
            // Served as a file server sends `.svgz`: its type, and no Content-Encoding.
            harness.serve("/d.svgz", SVGZSamples.compressed(), contentType: "image/svg+xml")
            harness.serve("/d.svg", SVGZSamples.drawing, contentType: "image/svg+xml")
            try await body(harness)
        }
    }

    @Test func anSVGZIsRenderedAsItsSVGIs() async throws {
        try await Self.withSVGZ { harness in
            for (options, ext, type) in [("rs:fit:300:300", "png", "image/png"), ("w:40", "jpg", "image/jpeg")] {
                let svgz = try await harness.get(harness.signedPath(options, source: "/d.svgz", ext: ext))
                let svg = try await harness.get(harness.signedPath(options, source: "/d.svg", ext: ext))
                #expect(svgz.status == 200 && svgz.header("Content-Type") == type, "\(svgz.text)")
                #expect(svgz.body == svg.body)
            }
            let png = try await harness.get(harness.signedPath("rs:fit:300:300", source: "/d.svgz", ext: "png"))
            let image = try png.image()
            #expect(image.pixelSize == PixelSize(width: 300, height: 150))
            #expect(image.pixels.converted(to: .rgba8).rgba8(x: 75, y: 75) == [0, 0, 255, 255])
            let info = try await harness.get("/info" + harness.signedPath("", source: "/d.svgz"))
            #expect(info.text == #"{"format":"svg","height":50,"mime_type":"image/svg+xml","orientation":1,"size":"#
                    + "\(SVGZSamples.compressed().count)" + #","width":100}"#)
        }
    }

    @Test func anSVGZIsAnsweredAsTheSanitizedSVGItHolds() async throws {
        try await Self.withSVGZ { harness in
            let svgz = try await harness.get(harness.signedPath("w:10", source: "/d.svgz"))
            let svg = try await harness.get(harness.signedPath("w:10", source: "/d.svg"))
            #expect(svgz.status == 200 && svgz.header("Content-Type") == "image/svg+xml")
            #expect(svgz.header("Content-Encoding") == nil)
            #expect(svgz.body == svg.body)
            #expect(svgz.text.contains("<circle") && !svgz.text.contains("alert"))
            // `raw` and an unsanitized answer give the document, not the gzip bytes.
            let raw = try await harness.get(harness.signedPath("raw:1", source: "/d.svgz"))
            #expect(raw.status == 200 && raw.header("Content-Type") == "image/svg+xml")
            #expect(raw.body == SVGZSamples.drawing)
        }
        try await Self.withSVGZ({ $0.processing.sanitizesSVG = false }) { harness in
            let answer = try await harness.get(harness.signedPath("w:10", source: "/d.svgz"))
            #expect(answer.status == 200 && answer.body == SVGZSamples.drawing)
        }
    }

    @Test func inflatingStopsAtTheLimits() async throws {
        // A bomb: refused at 100 times its size, long before the operator's 50 MB.
        let bomb = SVGZSamples.bomb(inflatedBytes: 20_000_000)
        let document = SVGZSamples.rectangles(2_000)
        try await Self.withSVGZ { harness in
            harness.serve("/bomb.svgz", bomb, contentType: "image/svg+xml")
            for ext in ["png", "svg"] {
                let answer = try await harness.get(harness.signedPath("w:10", source: "/bomb.svgz", ext: ext))
                #expect(answer.status == 422)
                #expect(answer.text.contains("inflates past \(bomb.count * SVGZ.maxRatio) bytes"), "\(answer.text)")
            }
        }
        try await Self.withSVGZ({ $0.limits.maxSourceBytes = document.count - 1; $0.limits.allowsSecurityOptions = true }) { harness in
            // Within the ratio, past the operator's source limit by one byte.
            harness.serve("/rects.svgz", SVGZSamples.compressed(document), contentType: "image/svg+xml")
            let over = try await harness.get(harness.signedPath("w:10", source: "/rects.svgz", ext: "png"))
            #expect(over.status == 422 && over.text.contains("inflates past \(document.count - 1) bytes"), "\(over.text)")
            // The URL's max_src_file_size lowers it.
            let drawing = try await harness.get(harness.signedPath("msfs:100/w:10", source: "/d.svgz", ext: "png"))
            #expect(drawing.status == 422 && drawing.text.contains("inflates past 100 bytes"), "\(drawing.text)")
            #expect(try await harness.get(harness.signedPath("w:10", source: "/d.svgz", ext: "png")).status == 200)
        }
    }

    @Test func gzipOfSomethingElseIsNoImage() async throws {
        try await Self.withSVGZ { harness in
            harness.serve("/page.svgz", ContentEncoding.gzip(Data("<html><body>hello</body></html>".utf8)),
                          contentType: "image/svg+xml")
            let answer = try await harness.get(harness.signedPath("w:10", source: "/page.svgz", ext: "png"))
            #expect(answer.status == 422 && answer.text.contains("not an image"), "\(answer.text)")
        }
    }
}
