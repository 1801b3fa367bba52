import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// imgproxy Pro's `jpeg_options`, `png_options`, `webp_options` and `avif_options` over real HTTP: each
/// argument reaches the encoder (read back from the bytes), an empty one keeps the service's setting, and bad
/// or unavailable ones answer 400 naming why.
@Suite struct ProxyEncoderOptionTests {
    static func bytes(_ options: String, ext: String,
                      configuration: ImageProxyConfiguration = ProxyHarness.configuration()) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        try await ProxyOptionTests.withPhoto(configuration) { harness in
            let answer = try await harness.get(harness.signedPath(options, source: "/photo.jpg", ext: ext))
            #expect(answer.status == 200, "\(options): \(answer.text)")
            bytes = [UInt8](answer.body)
        }
        return bytes
    }

    @Test func jpegOptions() async throws {
        let plain = try await Self.bytes("w:64", ext: "jpg")
        #expect(JPEGFrames.startOfFrame(in: plain) == 0xC0 && JPEGFrames.lumaSampling(in: plain) == 0x22)
        let both = try await Self.bytes("w:64/jpgo:1:1", ext: "jpg")
        #expect(JPEGFrames.startOfFrame(in: both) == 0xC2 && JPEGFrames.lumaSampling(in: both) == 0x11)
        // mozjpeg's switches are accepted without effect; quality 90 is 4:4:4 by libvips' rule.
        let mozjpeg = try await Self.bytes("w:64/jpgo::0:1:1:1:0", ext: "jpg")
        #expect(mozjpeg == plain)
        let high = try await Self.bytes("w:64/q:90", ext: "jpg")
        #expect(JPEGFrames.lumaSampling(in: high) == 0x11)
    }

    @Test func pngOptions() async throws {
        let png = try await Self.bytes("w:64/pngo:1:1:4", ext: "png")
        #expect((png[24], png[25], png[28]) == (2, 3, 1), "2-bit palette indices, palette colour type, Adam7")
        let colours = try await Self.bytes("w:64/pngo::1", ext: "png")
        #expect((colours[25], colours[24], colours[28]) == (3, 8, 0), "the service's 256 colours, not interlaced")
        var quantizing = ProxyHarness.configuration()
        quantizing.processing.pngQuantizes = true
        let off = try await Self.bytes("w:64/pngo::0", ext: "png", configuration: quantizing)
        #expect(off[25] != 3, "a URL turns the service's quantisation off")
    }

    @Test func webpAndAVIFOptions() async throws {
        func chunk(_ webp: [UInt8]) -> String { String(decoding: webp[12..<16], as: UTF8.self) }
        #expect(chunk(try await Self.bytes("w:64", ext: "webp")) == "VP8 ")
        #expect(chunk(try await Self.bytes("w:64/webpo:lossless", ext: "webp")) == "VP8L")
        #expect(chunk(try await Self.bytes("w:64/webpo:near_lossless:1:photo", ext: "webp")) == "VP8L")
        #expect(try await Self.bytes("w:64/webpo::1", ext: "webp") != Self.bytes("w:64", ext: "webp"))
        #expect(AV1Config.chromaSubsampled(in: try await Self.bytes("w:64", ext: "avif")) == true)
        #expect(AV1Config.chromaSubsampled(in: try await Self.bytes("w:64/avifo:off", ext: "avif")) == false)
        #expect(AV1Config.chromaSubsampled(in: try await Self.bytes("w:64/q:95/avifo:on", ext: "avif")) == true)
    }

    @Test(arguments: [
        ("jpgo:1:1:0:0:0:3", "jpeg_options: quantization table 3 needs mozjpeg; only 0 (JPEG Annex K) is written here"),
        ("jpgo:1:1:0:0:0:9", "jpgo takes a whole number from 0 to 8, not '9'"),
        ("jpgo:1:1:1:1:1:0:1", "jpgo takes 1–6 arguments, not 7"),
        ("pngo:1:1:300", "pngo takes a whole number from 2 to 256, not '300'"),
        ("webpo:lossy:2", "webpo takes 1/t/true or 0/f/false, not '2'"),
        ("webpo:fast", "webpo takes one of lossy, near_lossless, lossless, not 'fast'"),
        ("webpo:lossy:0:cartoon", "webpo takes one of default, picture, photo, drawing, icon, text, not 'cartoon'"),
        ("avifo:always", "avifo takes one of auto, on, off, not 'always'"),
    ])
    func badArgumentsAreRefused(text: String, message: String) {
        expectRefused(text, message)
    }
}
