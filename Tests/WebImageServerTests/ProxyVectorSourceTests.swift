import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// SVG sources as imgproxy answers them: kept as (sanitized) SVG when the URL names SVG or no format, else
/// rendered at the size the result needs — not rendered at their own size and resized.
@Suite struct ProxyVectorSourceTests {
    /// A 100×50 drawing: a blue disc on a transparent background, a thin diagonal line, and a script.
    static let drawing = Data("""
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 100 50" onload="alert(1)">
      <script>alert(2)</script>
      <circle cx="25" cy="25" r="20" fill="#0000ff"/>
      <line x1="50" y1="0" x2="100" y2="50" stroke="#ff0000" stroke-width="0.7"/>
    </svg>
    """.utf8)

    static func withSVG(_ adjust: (inout ImageProxyConfiguration) -> Void = { _ in },
                        _ body: (ProxyHarness) async throws -> Void) async throws {
        try await ProxyHarness.with(ProxyHarness.configuration(adjust)) { harness in
            harness.serve("/d.svg", Self.drawing, contentType: "image/svg+xml")
            try await body(harness)
        }
    }

    @Test func anSVGAskedForInNoFormatIsSanitizedSVG() async throws {
        try await Self.withSVG { harness in
            // Resize options do not make it a raster (imgproxy skips processing); Accept does not either.
            let answer = try await harness.get(harness.signedPath("rs:fit:300:300", source: "/d.svg"),
                                               headers: [("Accept", "image/avif,image/webp,*/*")])
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "image/svg+xml")
            #expect(!answer.text.contains("alert") && answer.text.contains("<circle"))
            let named = try await harness.get(harness.signedPath("w:10", source: "/d.svg", ext: "svg"))
            #expect(named.status == 200 && named.header("Content-Type") == "image/svg+xml")
            #expect(named.body == answer.body)
        }
        try await Self.withSVG({ $0.processing.sanitizesSVG = false }) { harness in
            let answer = try await harness.get(harness.signedPath("w:10", source: "/d.svg"))
            #expect(answer.status == 200 && answer.body == Self.drawing)
        }
    }

    /// An origin's SVG that names a file of the service's machine in an external entity, parameter entity or DTD
    /// gets nothing of it: librsvg, reading the header, refuses an entity it does not define (422), and the
    /// sanitiser reads nothing from outside the document.
    @Test func anSVGAnsweredAsSVGHoldsNothingOfTheServicesFiles() async throws {
        let outside = try OutsideFileDocuments(root: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\">")
        defer { outside.remove() }
        let documents = outside.documents
        try await ProxyHarness.with(ProxyHarness.configuration()) { harness in
            for (index, document) in documents.enumerated() {
                harness.serve("/x\(index).svg", Data(document.utf8), contentType: "image/svg+xml")
                let answer = try await harness.get(harness.signedPath("w:10", source: "/x\(index).svg", ext: "svg"))
                #expect(answer.status == 422 && !answer.text.contains(OutsideFileDocuments.secret),
                        "\(index): \(answer.status) \(answer.text)")
            }
        }
    }

    @Test func aRasterIsRenderedAtTheResultSize() async throws {
        try await Self.withSVG { harness in
            // 100×50 fitted into 300×300: enlarged (vectors ignore enlarge:0) to 300×150.
            let answer = try await harness.get(harness.signedPath("rs:fit:300:300", source: "/d.svg", ext: "png"))
            #expect(answer.status == 200 && answer.header("Content-Type") == "image/png")
            let result = try answer.image()
            #expect(result.pixelSize == PixelSize(width: 300, height: 150))
            // The same pixels as the document rendered at 300×150 directly: not a 100×50 raster scaled up.
            let direct = try CodersManager.shared.decode(Self.drawing, options: ImageDecodeOptions(
                thumbnailPixelSize: PixelSize(width: 300, height: 150)))
            let resized = Resampler.resample(try CodersManager.shared.decode(Self.drawing, options: ImageDecodeOptions()).pixels,
                                             to: PixelSize(width: 300, height: 150))
            let fromService = result.pixels.converted(to: .rgba8), rendered = direct.pixels.converted(to: .rgba8)
            #expect(Self.meanDifference(fromService, rendered) < 0.5)
            #expect(Self.meanDifference(fromService, resized.converted(to: .rgba8)) > 1)
            // Transparent where nothing is drawn, the disc blue.
            #expect(fromService.rgba8(x: 2, y: 2)[3] == 0)
            #expect(fromService.rgba8(x: 75, y: 75) == [0, 0, 255, 255])
        }
    }

    @Test func namingNoFormatRasterisesWhenTheOperatorSaysSo() async throws {
        try await Self.withSVG({ $0.processing.alwaysRasterizesSVG = true }) { harness in
            let answer = try await harness.get(harness.signedPath("w:50", source: "/d.svg"))
            #expect(answer.status == 200 && answer.header("Content-Type") == "image/png")
            #expect(try answer.image().pixelSize == PixelSize(width: 50, height: 25))
            let skipped = try await harness.get(harness.signedPath("w:50/skp:svg", source: "/d.svg"))
            #expect(skipped.status == 200 && skipped.header("Content-Type") == "image/svg+xml")
        }
    }

    @Test func refusalsAndLimits() async throws {
        let huge = Data(##"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="100000" height="100000" fill="#00ff00"/></svg>"##.utf8)
        try await Self.withSVG { harness in
            harness.serve("/a.png", try Fixtures.png(20, 10), contentType: "image/png")
            let svgOfPNG = try await harness.get(harness.signedPath("w:10", source: "/a.png", ext: "svg"))
            #expect(svgOfPNG.status == 422 && svgOfPNG.text.contains("SVG result needs an SVG source"))
            harness.serve("/broken.svg", Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><g></svg>".utf8),
                          contentType: "image/svg+xml")
            let broken = try await harness.get(harness.signedPath("w:10", source: "/broken.svg"))
            #expect(broken.status == 422)
            // A declared size of 10 gigapixels is rendered at the size asked for, not refused, not allocated.
            harness.serve("/huge.svg", huge, contentType: "image/svg+xml")
            let small = try await harness.get(harness.signedPath("w:64", source: "/huge.svg", ext: "png"))
            #expect(small.status == 200)
            #expect(try small.image().pixelSize == PixelSize(width: 64, height: 64))
            // With no size asked, it is rendered at the source resolution limit (imgproxy's vector guard).
            let whole = try await harness.get(harness.signedPath("q:50", source: "/huge.svg", ext: "jpg"))
            #expect(whole.status == 200)
            let size = try whole.image().pixelSize
            #expect(size.width == size.height && size.pixelCount <= harness.proxy.configuration.limits.maxSourcePixels)
        }
    }

    static func meanDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var total = 0, count = 0
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                for (p, q) in zip(a.rgba8(x: x, y: y), b.rgba8(x: x, y: y)) { total += abs(Int(p) - Int(q)) }
                count += 4
            }
        }
        return Double(total) / Double(max(1, count))
    }
}
