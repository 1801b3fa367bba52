import Foundation
import Testing
import WebImage
@testable import WebImageServer

/// imgproxy Pro's unsharp masking: the filter's numbers, and when the service and a URL apply it.
@Suite struct ProxyUnsharpMaskingTests {
    /// A 3×3 grey 50 with a centre of 100: the centre gains 1/24 of (9 × 100 − the nine's sum 500), 116.67 → 117;
    /// an edge pixel repeats its neighbours past the edge.
    @Test func theFilterPushesEachColourFromItsNeighbours() {
        let pixels = PixelBuffer(width: 3, height: 3) { out in
            for i in stride(from: 0, to: out.count, by: 4) {
                let value: UInt8 = i == 16 ? 100 : 50
                (out[i], out[i + 1], out[i + 2], out[i + 3]) = (value, value, value, 200)
            }
        }
        let sharp = UnsharpMask.apply(pixels, weight: 1, divider: 24)
        #expect(sharp.rgba8(x: 1, y: 1) == [117, 117, 117, 200])
        // Corner (0, 0): its 3×3 with repeats holds the centre once and 50 eight times: 9 × 50 − 500 = −50.
        #expect(sharp.rgba8(x: 0, y: 0) == [48, 48, 48, 200])
        #expect(UnsharpMask.apply(pixels, weight: 2, divider: 24).rgba8(x: 1, y: 1) == [133, 133, 133, 200])
    }

    @Test func whenItApplies() async throws {
        try await ProxyOptionTests.withPhoto { harness in
            func pixels(_ options: String) async throws -> PixelBuffer {
                try await harness.get(harness.signedPath(options, source: "/photo.jpg", ext: "png")).image().pixels
            }
            let plain = try await pixels("w:100")
            #expect(try await pixels("w:100/ush:always") != plain)
            #expect(try await pixels("w:100/ush:auto") != plain, "made smaller: auto applies")
            #expect(try await pixels("w:100/ush:auto/sh:1") == pixels("w:100/sh:1"), "not with sharpen")
            #expect(try await pixels("ush:auto") == pixels("fl:0"), "not at the source's size")
            #expect(try await pixels("w:100/ush:always:1:100") != pixels("w:100/ush:always"))
        }
        var configuration = ProxyHarness.configuration()
        configuration.processing.unsharpMasking.mode = .auto
        try await ProxyOptionTests.withPhoto(configuration) { harness in
            let auto = try await harness.get(harness.signedPath("w:100", source: "/photo.jpg", ext: "png")).body
            let off = try await harness.get(harness.signedPath("w:100/ush:none", source: "/photo.jpg", ext: "png")).body
            #expect(auto != off)
        }
    }

    @Test(arguments: [
        ("ush:sometimes", "ush takes one of auto, none, always, not 'sometimes'"),
        ("ush:always:0", "ush's weight and divider are above 0"),
        ("ush:always:1:1000", "ush takes a number from 0.0 to 100.0, not '1000'"),
    ])
    func badArgumentsAreRefused(text: String, message: String) {
        expectRefused(text, message)
    }
}
