import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// AVIF, HEIC/HEIF and JPEG XL sources through the whole service: resized to the exact size, turned upright
/// once, written in a format browsers show, animations kept, limits checked from the header, broken files
/// refused like a broken JPEG.
@Suite struct ProxyModernSourceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var path: String
        var options: String
        var accept: String?
        var contentType: String
        var size: PixelSize
        var testDescription: String { "\(path) \(options) → \(contentType)" }
    }

    /// With no format asked or negotiated, a source in a preferred format (imgproxy's default JPEG, PNG, GIF)
    /// keeps it; any other becomes the first preferred format that holds the result: JPEG when opaque.
    @Test(arguments: [
        Case(path: "heif/arrow.heic", options: "rs:fit:300:300", contentType: "image/jpeg",
             size: PixelSize(width: 225, height: 300)),
        Case(path: "heif/arrow.heic", options: "rs:fill:100:100", accept: "image/webp,*/*", contentType: "image/webp",
             size: PixelSize(width: 100, height: 100)),
        Case(path: "heif/colors-with-alpha.heic", options: "w:32", contentType: "image/png",
             size: PixelSize(width: 32, height: 32)),
        Case(path: "avif/Ronda_rotate90.avif", options: "w:270", contentType: "image/jpeg",
             size: PixelSize(width: 270, height: 480)),
        Case(path: "avif/Ronda_rotate90.avif", options: "w:270/f:avif", contentType: "image/avif",
             size: PixelSize(width: 270, height: 480)),
        Case(path: "jxl/sunset_logo.jxl", options: "w:231/f:jxl", contentType: "image/jxl",
             size: PixelSize(width: 231, height: 347)),
        Case(path: "avif/Chimera_10bit_cropped_to_1920x1008.avif", options: "w:480/f:webp", contentType: "image/webp",
             size: PixelSize(width: 480, height: 252)),
        Case(path: "jxl/bench_oriented_brg.jxl", options: "w:303", contentType: "image/jpeg",
             size: PixelSize(width: 303, height: 250)),
        Case(path: "jxl/sunset_logo.jxl", options: "w:231", contentType: "image/jpeg",
             size: PixelSize(width: 231, height: 347)),
    ])
    func resizesToTheExactSizeAndFormat(_ check: Case) async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/source", try TestCorpus.data(check.path), contentType: "application/octet-stream")
            let answer = try await harness.get(harness.signedPath(check.options, source: "/source"),
                                               headers: check.accept.map { [("Accept", $0)] } ?? [])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.header("Content-Type") == check.contentType)
            let image = try answer.image()
            #expect(image.pixelSize == check.size)
            #expect(image.frameCount == 1)
        }
    }

    /// A transparent HEIC or JPEG XL becomes PNG, or JPEG once flattened onto a background.
    @Test(arguments: [ImageFormat.heic, .jxl])
    func transparentSourcesBecomePNG(format: ImageFormat) async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/source", try Fixtures.still(format, 64, 48, alpha: true))
            let png = try await harness.get(harness.signedPath("w:32", source: "/source"))
            #expect(png.header("Content-Type") == "image/png")
            let image = try png.image()
            #expect(image.pixelSize == PixelSize(width: 32, height: 24) && image.pixels.containsTransparency)
            let flat = try await harness.get(harness.signedPath("w:32/bg:ffffff", source: "/source"))
            #expect(flat.header("Content-Type") == "image/jpeg")
            #expect(try flat.image().pixelSize == PixelSize(width: 32, height: 24))
        }
    }

    /// An iPhone HEIC's `irot`, an AVIF's `irot` and a JPEG XL's orientation are applied exactly once: the
    /// result matches the library's upright decode, and not that decode turned half a turn.
    @Test(arguments: [("heif/arrow.heic", PixelSize(width: 150, height: 200)),
                      ("avif/kimono.rotate90.avif", PixelSize(width: 181, height: 256)),
                      ("jxl/bench_oriented_brg.jxl", PixelSize(width: 303, height: 250))])
    func orientationIsAppliedOnce(path: String, size: PixelSize) async throws {
        let source = try TestCorpus.data(path)
        try await ProxyHarness.with { harness in
            harness.serve("/source", source, contentType: "application/octet-stream")
            let answer = try await harness.get(harness.signedPath("rs:force:\(size.width):\(size.height)/f:png",
                                                                  source: "/source"))
            let result = try answer.image().frames[0].pixels
            #expect(result.size == size)
            let upright = try CodersManager.shared.decode(source, options: ImageDecodeOptions(applyOrientation: true))
            let expected = Resampler.resample(upright.frames[0].pixels.converted(to: .rgba8), to: size)
            let matching = Self.difference(result, expected)
            let turned = Self.difference(result, expected.applying(.down))
            #expect(matching < 6 && turned > 2 * matching, "turned: \(turned), upright: \(matching)")
        }
    }

    /// An `avis` sequence stays animated in a format that holds animations and as a named AVIF result (an AVIF
    /// sequence again, where imgproxy keeps the first frame); an animated AVIF or JPEG XL with no format asked becomes
    /// an animated GIF, the first preferred format that holds an animation.
    @Test func animatedSources() async throws {
        try await ProxyHarness.with { harness in
            harness.serve("/seq", try TestCorpus.data("avif/colors-animated-8bpc.avif"), contentType: "image/avif")
            harness.serve("/anim", try TestCorpus.data("jxl/animation_icos4d.jxl"), contentType: "image/jxl")
            let webp = try await harness.get(harness.signedPath("w:75", source: "/seq"),
                                             headers: [("Accept", "image/webp")])
            #expect(webp.header("Content-Type") == "image/webp")
            #expect(try webp.image().frameCount == 5 && webp.image().pixelSize == PixelSize(width: 75, height: 75))
            let gif = try await harness.get(harness.signedPath("w:75/f:gif", source: "/seq"))
            #expect(try gif.image().frameCount == 5)
            let avif = try await harness.get(harness.signedPath("w:75/f:avif", source: "/seq"))
            #expect(avif.header("Content-Type") == "image/avif")
            #expect(try avif.image().frameCount == 5)
            let preferred = try await harness.get(harness.signedPath("w:75", source: "/seq"))
            #expect(preferred.header("Content-Type") == "image/gif")
            #expect(try preferred.image().frameCount == 5)
            let jxl = try await harness.get(harness.signedPath("w:64", source: "/anim"))
            #expect(jxl.header("Content-Type") == "image/gif")
            let frames = try jxl.image()
            #expect(frames.frameCount == 48 && frames.pixelSize == PixelSize(width: 64, height: 64))
        }
    }

    /// The pixel limit refuses each new format from its header, with the same status and message as a JPEG.
    @Test func sourcePixelsAreCheckedFromTheHeader() async throws {
        let configuration = ProxyHarness.configuration { $0.limits.maxSourcePixels = 10_000 }
        try await ProxyHarness.with(configuration) { harness in
            for format in [ImageFormat.jpeg, .avif, .heic, .jxl] {
                harness.serve("/wide.\(format.rawValue)", try Fixtures.still(format, 200, 100))
                harness.serve("/small.\(format.rawValue)", try Fixtures.still(format, 100, 100))
                let wide = try await harness.get(harness.signedPath("w:10", source: "/wide.\(format.rawValue)"))
                #expect(wide.status == 422, "\(format)")
                #expect(wide.text == "cannot process: the source is 200x100, over the limit of 10000 pixels\n")
                let small = try await harness.get(harness.signedPath("w:10", source: "/small.\(format.rawValue)"))
                #expect(small.status == 200, "\(format): \(small.text)")
            }
        }
    }

    /// Headers declaring far more pixels than their few bytes hold are refused while the header is read, by the
    /// format library's own size limit (libheif, libavif) or because no valid header follows (the JPEG XL
    /// `SizeHeader` here is followed by junk), before anything image-sized is allocated.
    @Test func hugeDeclaredSizesAreRefusedBeforeDecoding() async throws {
        try await ProxyHarness.with { harness in
            let heic = try SourceHeaderTests.patchingISPE(try Fixtures.still(.heic, 40, 30),
                                                          width: 60000, height: 60000)
            let avif = try SourceHeaderTests.patchingISPE(try Fixtures.still(.avif, 40, 30),
                                                          width: 70000, height: 1000)
            harness.serve("/huge.heic", heic)
            harness.serve("/huge.avif", avif)
            harness.serve("/huge.jxl", SourceHeaderTests.jxlCodestream(height: 1 << 30, ratio: 1))
            for (path, detail) in [("/huge.heic", "Image size 60000x60000 exceeds the maximum image size"),
                                   ("/huge.avif", "dimensions are too large [70000x1000]"),
                                   ("/huge.jxl", "truncated image data")] {
                let answer = try await harness.get(harness.signedPath("w:10", source: path))
                #expect(answer.status == 422)
                #expect(answer.text.hasPrefix("cannot process: the source's header cannot be read: "), "\(answer.text)")
                #expect(answer.text.contains(detail), "\(answer.text)")
            }
        }
    }

    /// The first half of a file, and every corpus file its reference decoder refused: 422, as a cut JPEG.
    @Test func brokenSourcesAreRefusedLikeABrokenJPEG() async throws {
        let cut = ["heif/arrow.heic", "avif/Ronda_rotate90.avif", "jxl/bench_oriented_brg.jxl"]
        let refused = (SourceHeaderTests.references("avif") + SourceHeaderTests.references("heif")
            + SourceHeaderTests.references("jxl")).filter { $0.size == nil }.map(\.path)
        #expect(refused.count == 14)
        try await ProxyHarness.with { harness in
            let jpeg = try Fixtures.jpeg(400, 300)
            harness.serve("/cut.jpg", jpeg.prefix(jpeg.count / 2))
            let brokenJPEG = try await harness.get(harness.signedPath("w:100", source: "/cut.jpg"))
            #expect(brokenJPEG.status == 422)
            for path in cut {
                let data = try TestCorpus.data(path)
                harness.serve("/cut/\(path)", data.prefix(data.count / 2))
                let answer = try await harness.get(harness.signedPath("w:100", source: "/cut/\(path)"))
                #expect(answer.status == brokenJPEG.status, "\(path): \(answer.text)")
            }
            for path in refused {
                harness.serve("/refused/\(path)", try TestCorpus.data(path))
                let answer = try await harness.get(harness.signedPath("w:100", source: "/refused/\(path)"))
                #expect(answer.status == 422, "\(path): \(answer.status) \(answer.text)")
            }
        }
    }

    /// `/info` reports the new formats: HEIF and AVIF as decoded (after `irot`), JPEG XL upright by its
    /// orientation (`sunset_logo.jxl` is stored 1386 × 924 with orientation 7).
    @Test func infoReportsTheNewFormats() async throws {
        try await ProxyHarness.with { harness in
            let cases = [("heif/arrow.heic", "heic", 1, 4032, 3024, 1), ("avif/colors-animated-8bpc.avif", "avif", 5, 150, 150, 1),
                         ("jxl/animation_icos4d.jxl", "jxl", 48, 128, 128, 1), ("jxl/sunset_logo.jxl", "jxl", 1, 1386, 924, 7)]
            for (path, format, frames, height, width, orientation) in cases {
                let data = try TestCorpus.data(path)
                harness.serve("/\(path)", data)
                let info = try await harness.get("/info" + harness.signedPath("pn:1/exif:0", source: "/\(path)"))
                #expect(info.text == #"{"format":""# + format + #"","height":\#(height),"mime_type":"image/\#(format)","#
                        + #""orientation":\#(orientation),"pages_number":\#(frames),"size":\#(data.count),"width":\#(width)}"#)
            }
        }
    }

    /// Mean absolute difference per channel, 0…255, of two RGBA rasters of one size.
    static func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        let a = a.converted(to: .rgba8), b = b.converted(to: .rgba8)
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, x.count))
            }
        }
    }
}
