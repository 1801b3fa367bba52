import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's `best` format over real HTTP: the smallest of the result in each candidate the client and the
/// operator allow, lossless formats for a flat image.
@Suite struct ProxyBestFormatTests {
    static let modern = [("Accept", "image/avif,image/webp,*/*")]

    /// A flat drawing: two colours in large blocks.
    static func drawing() throws -> Data {
        try Fixtures.encode(Image(pixels: PixelBuffer(width: 120, height: 80) { out in
            for i in stride(from: 0, to: out.count, by: 4) {
                let x = (i / 4) % 120
                (out[i], out[i + 1], out[i + 2], out[i + 3]) = x < 60 ? (20, 90, 200, 255) : (250, 250, 250, 255)
            }
        }), .png)
    }

    /// A busy 400×300 picture: gradients under noise of ±40 from a linear congruential generator.
    static func busy() throws -> Data {
        var seed: UInt32 = 7
        return try Fixtures.encode(Image(pixels: PixelBuffer(width: 400, height: 300) { out in
            for i in out.indices {
                seed = seed &* 1_103_515_245 &+ 12345
                let pixel = i / 4, x = pixel % 400, y = pixel / 400
                let base = i % 4 == 0 ? x * 255 / 400 : i % 4 == 1 ? y * 255 / 300 : (x + y) % 256
                out[i] = i % 4 == 3 ? 255 : UInt8(min(255, max(0, base + Int(seed >> 24) % 81 - 40)))
            }
        }), .png)
    }

    static func withBusyPhoto(_ configuration: ImageProxyConfiguration = ProxyHarness.configuration(),
                              _ body: (ProxyHarness) async throws -> Void) async throws {
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/photo.jpg", try Self.busy(), contentType: "image/png")
            try await body(harness)
        }
    }

    @Test func aPhotoGetsTheSmallestLossyEncoding() async throws {
        try await Self.withBusyPhoto { harness in
            let sizes = try await ["jpg", "webp", "avif"].asyncSizes { ext in
                try await harness.get(harness.signedPath("w:300", source: "/photo.jpg", ext: ext)).body.count
            }
            let complexity = ImageProcessor.complexity(of: try await harness.get(
                harness.signedPath("w:300", source: "/photo.jpg", ext: "png")).image().pixels)
            #expect(complexity >= 5.5, "the fixture photo is busy enough: \(complexity)")
            let best = try await harness.get(harness.signedPath("w:300/f:best", source: "/photo.jpg"), headers: Self.modern)
            #expect(best.status == 200 && best.body.count == sizes.values.min())
            let byExtension = try await harness.get(harness.signedPath("w:300", source: "/photo.jpg", ext: "best"),
                                                    headers: Self.modern)
            #expect(byExtension.body == best.body)
            let old = try await harness.get(harness.signedPath("w:300/f:best", source: "/photo.jpg"),
                                            headers: [("Accept", "image/jpeg")])
            #expect(old.body.count == sizes["jpg"], "only the preferred formats for this client (GIF only animated)")
            #expect(best.headers.first { $0.0.lowercased() == "vary" }?.1.contains("Accept") == true)
        }
    }

    @Test func aFlatDrawingGetsALosslessOne() async throws {
        try await ProxyHarness.with(ProxyHarness.configuration()) { harness in
            harness.serve("/d.png", try Self.drawing(), contentType: "image/png")
            let best = try await harness.get(harness.signedPath("f:best", source: "/d.png"), headers: Self.modern)
            let png = try await harness.get(harness.signedPath("f:png", source: "/d.png"))
            let lossless = try await harness.get(harness.signedPath("f:webp/webpo:lossless", source: "/d.png"))
            #expect(best.body.count == min(png.body.count, lossless.body.count))
            #expect(try best.image().pixels == png.image().pixels, "lossless: the same pixels")
        }
    }

    @Test func theOperatorCanMakeItTheDefault() async throws {
        var configuration = ProxyHarness.configuration()
        configuration.processing.bestFormat.byDefault = true
        configuration.processing.bestFormat.maxMegapixels = 0.01
        try await Self.withBusyPhoto(configuration) { harness in
            let answer = try await harness.get(harness.signedPath("w:300", source: "/photo.jpg"), headers: Self.modern)
            // Over the megapixel limit: encoded once, in AVIF, the format that usually wins for a photo.
            let type = answer.headers.first { $0.0.lowercased() == "content-type" }?.1
            #expect(answer.status == 200 && type == "image/avif", "\(String(describing: type))")
            let named = try await harness.get(harness.signedPath("w:300", source: "/photo.jpg", ext: "png"), headers: Self.modern)
            #expect(named.headers.first { $0.0.lowercased() == "content-type" }?.1 == "image/png")
        }
    }
}

extension Array where Element == String {
    func asyncSizes(_ size: (String) async throws -> Int) async rethrows -> [String: Int] {
        var sizes: [String: Int] = [:]
        for ext in self { sizes[ext] = try await size(ext) }
        return sizes
    }
}
