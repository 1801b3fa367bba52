import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// Source limits (bytes while streaming, pixels from the header, the total download deadline) and animations.
@Suite struct ProxyLimitTests {
    @Test func sourceBytesAreCappedWhileStreaming() async throws {
        let configuration = ProxyHarness.configuration { $0.limits.maxSourceBytes = 10_000 }
        try await ProxyHarness.with(configuration) { harness in
            let big = try Fixtures.encode(Image(pixels: Fixtures.noise(100, 100)), .png)
            #expect(big.count > 10_000)
            harness.serve("/big.png", big, contentType: "image/png")
            harness.origin.route("/chunked.png", TestResponse(headers: [("Content-Type", "image/png")], body: big,
                                                              chunked: true))
            for path in ["/big.png", "/chunked.png"] {
                let answer = try await harness.get(harness.signedPath("w:10", source: path))
                #expect(answer.status == 422, "\(path)")
                #expect(answer.text.contains("10000"))
            }
        }
    }

    @Test func sourcePixelsAreCheckedFromTheHeader() async throws {
        let configuration = ProxyHarness.configuration { $0.limits.maxSourcePixels = 10_000 }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/wide.jpg", try Fixtures.jpeg(200, 100))
            harness.serve("/small.jpg", try Fixtures.jpeg(100, 100))
            let answer = try await harness.get(harness.signedPath("w:10", source: "/wide.jpg"))
            #expect(answer.status == 422)
            #expect(answer.text.contains("200x100"))
            #expect(try await harness.get(harness.signedPath("w:10", source: "/small.jpg")).status == 200)
        }
    }

    @Test func aDrippingSourceIsCutAtTheTotalDeadline() async throws {
        let configuration = ProxyHarness.configuration { $0.timeouts.download = .seconds(1) }
        try await ProxyHarness.with(configuration) { harness in
            let source = try Fixtures.jpeg(100, 100)
            harness.serve("/drip.jpg", source, behavior: .drip(chunkSize: 1, interval: .milliseconds(50)))
            let started = ContinuousClock.now
            let answer = try await harness.get(harness.signedPath("w:10", source: "/drip.jpg"))
            #expect(answer.status == 504)
            // Cut long before the drip would end (a loaded machine stretches the 1 s deadline, not this much).
            let wholeDrip = Duration.milliseconds(50) * source.count
            #expect(source.count > 400)
            #expect(ContinuousClock.now - started < wholeDrip / 2)
        }
    }

    @Test func animatedGIFStaysAnimated() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/anim.gif", try Fixtures.animatedGIF(60, 40, frames: 3), contentType: "image/gif")
            let gif = try await harness.get(harness.signedPath("rs:fit:30:30", source: "/anim.gif"))
            #expect(gif.header("Content-Type") == "image/gif")
            let frames = try gif.image()
            #expect(frames.frameCount == 3)
            #expect(frames.pixelSize == PixelSize(width: 30, height: 20))
            let webp = try await harness.get(harness.signedPath("rs:fill:20:20", source: "/anim.gif"),
                                             headers: [("Accept", "image/webp")])
            #expect(webp.header("Content-Type") == "image/webp")
            #expect(try webp.image().frameCount == 3)
            #expect(try webp.image().pixelSize == PixelSize(width: 20, height: 20))
            let still = try await harness.get(harness.signedPath("w:30/f:jpg", source: "/anim.gif"))
            #expect(try still.image().frameCount == 1)
        }
    }

    /// A result larger than its format holds is scaled down to fit, as imgproxy's `fix_size.go` does: WebP
    /// 16,383 a side, AVIF 16,384 (when the operator's own limit allows such sizes at all).
    @Test func formatsHoldTheirOwnLargestSide() async throws {
        let configuration = ProxyHarness.configuration {
            $0.limits.maxOutputSide = 20_000
            $0.limits.maxOutputPixels = 100_000
        }
        try await ProxyHarness.with(configuration) { harness in
            harness.serve("/strip.png", try Fixtures.png(17_000, 2), contentType: "image/png")
            let webp = try await harness.get(harness.signedPath("f:webp", source: "/strip.png"))
            #expect(try webp.image().pixelSize == PixelSize(width: 16_383, height: 2))
            let png = try await harness.get(harness.signedPath("f:png", source: "/strip.png"))
            #expect(try png.image().pixelSize == PixelSize(width: 17_000, height: 2))
        }
    }
}
