import Foundation
import Testing
import WebImage
@testable import WebImageCodecs

/// What an independent decoder reports for one corpus sample.
///
/// Frame counts, raw delays (centiseconds) and loop counts come from ImageMagick 6
/// (`convert-im6.q16 x.gif -format "%T," info:`) and Pillow 9.4 (`n_frames`, `info["duration"]`,
/// `info["loop"]`), which agree on every file; `loop` nil means the file has no NETSCAPE2.0 block.
struct GIFSampleExpectation: Sendable, CustomStringConvertible {
    var name: String
    var width: Int
    var height: Int
    var frameCount: Int
    /// Raw delays of the first frames, in centiseconds.
    var firstDelays: [Int]
    /// Total play time in seconds after SDWebImage's rule (each raw delay under 2 cs counts as 10 cs), summed
    /// from ImageMagick's full delay list.
    var totalSeconds: Double
    var loop: Int?
    var description: String { name }
}

/// A composited frame's FNV-1a hash (see ``GIFTestSupport/fnv1a(_:)``) as Pillow 9.4 `seek(i).convert("RGBA")`
/// and ImageMagick `-coalesce` both produce it, plus three probes (top-left, centre, bottom-right).
struct GIFFrameProbe: Sendable, CustomStringConvertible {
    var name: String
    var frame: Int
    var hash: UInt64
    var probes: [(x: Int, y: Int, rgba: [UInt8])]
    var description: String { "\(name)#\(frame)" }
}

@Suite struct GIFCorpusTests {
    static let samples: [GIFSampleExpectation] = [
        .init(name: "2x2.gif", width: 2, height: 2, frameCount: 1, firstDelays: [0], totalSeconds: 0, loop: nil),
        .init(name: "alpha_gif_a.gif", width: 256, height: 256, frameCount: 1, firstDelays: [0], totalSeconds: 0, loop: nil),
        .init(name: "anim-gr.gif", width: 100, height: 50, frameCount: 2, firstDelays: [1, 10000], totalSeconds: 100.1, loop: 0),
        .init(name: "beacon.gif", width: 6, height: 6, frameCount: 2, firstDelays: [0, 0], totalSeconds: 0.2, loop: 0),
        .init(name: "beacon_icc.gif", width: 6, height: 6, frameCount: 2, firstDelays: [0, 0], totalSeconds: 0.2, loop: 0),
        .init(name: "beacon_xmp.gif", width: 6, height: 6, frameCount: 2, firstDelays: [0, 0], totalSeconds: 0.2, loop: 0),
        .init(name: "gifplayer-muybridge.gif", width: 472, height: 298, frameCount: 380,
              firstDelays: [36, 4, 4, 4, 4, 4, 39, 4, 52, 14, 15, 7], totalSeconds: 58.55, loop: 0),
        .init(name: "interlaced.gif", width: 540, height: 330, frameCount: 1, firstDelays: [0], totalSeconds: 0, loop: nil),
        .init(name: "moon_impact.gif", width: 116, height: 100, frameCount: 14,
              firstDelays: Array(repeating: 15, count: 14), totalSeconds: 2.1, loop: 10),
        .init(name: "sample_1.gif", width: 10, height: 10, frameCount: 1, firstDelays: [0], totalSeconds: 0, loop: nil),
        .init(name: "sample_big.gif", width: 1000, height: 175, frameCount: 259,
              firstDelays: Array(repeating: 0, count: 12), totalSeconds: 25.9, loop: nil),
        .init(name: "set_hsts.gif", width: 1, height: 1, frameCount: 1, firstDelays: [0], totalSeconds: 0, loop: nil),
    ]

    static let probes: [GIFFrameProbe] = [
        .init(name: "2x2.gif", frame: 0, hash: 0x0153_ec76_769f_217d,
              probes: [(0, 0, [0, 0, 0, 255]), (1, 1, [0, 0, 0, 255])]),
        .init(name: "alpha_gif_a.gif", frame: 0, hash: 0xba10_0561_2ddf_2325,
              probes: [(0, 0, [0, 0, 255, 255]), (128, 128, [0, 0, 0, 0]), (255, 255, [0, 0, 0, 0])]),
        .init(name: "anim-gr.gif", frame: 1, hash: 0xa4e3_4aee_97d5_6a15,
              probes: [(0, 0, [255, 0, 0, 255]), (50, 25, [255, 0, 0, 255]), (99, 49, [255, 0, 0, 255])]),
        .init(name: "beacon.gif", frame: 0, hash: 0xbc4c_4a0a_fefb_feb5,
              probes: [(0, 0, [255, 255, 255, 255]), (3, 3, [0, 0, 0, 255]), (5, 5, [255, 255, 255, 255])]),
        .init(name: "beacon.gif", frame: 1, hash: 0x15de_c5f1_a7a1_0abd,
              probes: [(3, 3, [255, 255, 255, 255])]),
        .init(name: "interlaced.gif", frame: 0, hash: 0x7615_8f5a_28d5_840b,
              probes: [(0, 0, [255, 255, 255, 255]), (270, 165, [123, 0, 132, 255]), (539, 329, [255, 255, 255, 255])]),
        .init(name: "moon_impact.gif", frame: 7, hash: 0x41e8_a9a2_a009_6063,
              probes: [(0, 0, [9, 9, 9, 255]), (58, 50, [70, 70, 70, 255]), (115, 99, [6, 6, 6, 255])]),
        .init(name: "moon_impact.gif", frame: 13, hash: 0x0ae3_e274_76a0_eecf,
              probes: [(0, 0, [9, 9, 9, 255]), (58, 50, [71, 71, 71, 255]), (115, 99, [6, 6, 6, 255])]),
        .init(name: "gifplayer-muybridge.gif", frame: 1, hash: 0x2754_7b84_308f_f622, probes: [(0, 0, [0, 0, 0, 255])]),
        .init(name: "gifplayer-muybridge.gif", frame: 190, hash: 0x34ae_25d9_7445_9ac5, probes: [(236, 149, [0, 0, 0, 255])]),
        .init(name: "gifplayer-muybridge.gif", frame: 379, hash: 0x687e_6fae_704b_b0bf, probes: [(471, 297, [0, 0, 0, 255])]),
        .init(name: "sample_big.gif", frame: 0, hash: 0xaf9b_ce19_fc49_0772, probes: [(500, 87, [0, 0, 0, 0])]),
        .init(name: "sample_big.gif", frame: 129, hash: 0x330b_eea9_4e0b_f0a3,
              probes: [(0, 0, [214, 221, 230, 255]), (500, 87, [64, 62, 71, 255]), (999, 174, [35, 41, 27, 255])]),
        .init(name: "sample_big.gif", frame: 258, hash: 0x8648_1324_2a69_d67f, probes: [(999, 174, [35, 41, 27, 255])]),
        .init(name: "set_hsts.gif", frame: 0, hash: 0x4d25_767f_9dce_13f5, probes: [(0, 0, [0, 0, 0, 0])]),
    ]

    /// SDWebImage's rule: a delay under 11 ms (0 or 1 centisecond) is shown for 100 ms.
    static func seconds(_ centiseconds: Int) -> Double {
        centiseconds < 2 ? 0.1 : Double(centiseconds) / 100
    }

    @Test(arguments: samples)
    func framesDelaysAndLoopCountMatchReference(_ sample: GIFSampleExpectation) throws {
        let data = try GIFTestSupport.corpus("samples", sample.name)
        let decoder = try GIFCoder().makeAnimatedDecoder(data, options: .init())
        #expect(decoder.pixelSize == PixelSize(width: sample.width, height: sample.height))
        #expect(decoder.frameCount == sample.frameCount)
        #expect(decoder.loopCount == (sample.loop ?? 1))
        let durations = (0..<decoder.frameCount).map { decoder.frameDuration(at: $0) }
        if sample.frameCount == 1 {
            #expect(durations == [0])
        } else {
            #expect(Array(durations.prefix(sample.firstDelays.count)) == sample.firstDelays.map(Self.seconds))
            #expect(abs(durations.reduce(0, +) - sample.totalSeconds) < 1e-6)
        }
    }

    /// The one-shot decoder agrees with the lazy one on small files (the big ones are covered lazily,
    /// their full decode costing hundreds of MB).
    @Test(arguments: samples.filter { $0.width * $0.height * $0.frameCount < 1_000_000 })
    func fullDecodeMatchesReference(_ sample: GIFSampleExpectation) throws {
        let image = try GIFCoder().decode(try GIFTestSupport.corpus("samples", sample.name), options: .init())
        #expect(image.format == .gif)
        #expect(image.pixelSize == PixelSize(width: sample.width, height: sample.height))
        #expect(image.frameCount == sample.frameCount)
        #expect(image.loopCount == (sample.loop ?? 1))
        if sample.frameCount > 1 {
            #expect(Array(image.frameDurations.prefix(sample.firstDelays.count)) == sample.firstDelays.map(Self.seconds))
        } else {
            #expect(image.frameDurations == [0])
        }
    }

    @Test(arguments: probes)
    func compositedFramesMatchPillowAndImageMagick(_ probe: GIFFrameProbe) throws {
        let data = try GIFTestSupport.corpus("samples", probe.name)
        let decoder = try GIFCoder().makeAnimatedDecoder(data, options: .init())
        let pixels = try decoder.frame(at: probe.frame)
        #expect(GIFTestSupport.fnv1a(pixels) == probe.hash)
        for (x, y, rgba) in probe.probes { #expect(pixels.rgba8(x: x, y: y) == rgba, "(\(x), \(y))") }
    }

    @Test func fullDecodeFramesEqualLazyFrames() throws {
        let data = try GIFTestSupport.corpus("samples", "moon_impact.gif")
        let image = try GIFCoder().decode(data, options: .init())
        let decoder = try GIFCoder().makeAnimatedDecoder(data, options: .init())
        for index in [13, 0, 7, 8, 2] { #expect(try decoder.frame(at: index) == image.frames[index].pixels) }
        #expect(GIFTestSupport.fnv1a(image.frames[13].pixels) == 0x0ae3_e274_76a0_eecf)
    }

    @Test func firstFrameOnlyOfBigAnimation() throws {
        let data = try GIFTestSupport.corpus("samples", "sample_big.gif")
        let image = try GIFCoder().decode(data, options: ImageDecodeOptions(firstFrameOnly: true))
        #expect(image.frameCount == 1)
        #expect(image.frameDurations == [0])
        #expect(image.hasAlpha)
        #expect(GIFTestSupport.fnv1a(image.pixels) == 0xaf9b_ce19_fc49_0772)
    }

    @Test func hasAlphaFollowsTransparentIndex() throws {
        #expect(try GIFCoder().decode(try GIFTestSupport.corpus("samples", "alpha_gif_a.gif"), options: .init()).hasAlpha)
        #expect(try !GIFCoder().decode(try GIFTestSupport.corpus("samples", "moon_impact.gif"), options: .init()).hasAlpha)
    }

    @Test func thumbnailAndScaleOptionsApply() throws {
        let data = try GIFTestSupport.corpus("samples", "moon_impact.gif")
        let options = ImageDecodeOptions(scaleFactor: 2, thumbnailPixelSize: PixelSize(width: 58, height: 58))
        let image = try GIFCoder().decode(data, options: options)
        #expect(image.pixelSize == PixelSize(width: 58, height: 50))
        #expect(image.frameCount == 14)
        #expect(image.isThumbnail)
        #expect(image.scale == 2)
        let decoder = try GIFCoder().makeAnimatedDecoder(data, options: options)
        #expect(decoder.pixelSize == PixelSize(width: 58, height: 50))
        #expect(try decoder.frame(at: 3).size == PixelSize(width: 58, height: 50))
    }

    @Test func sharedManagerDecodesAnimatesAndStreamsGIF() throws {
        #expect(BuiltInCoders.makeAll().contains { $0 is GIFCoder })
        let data = try GIFTestSupport.corpus("samples", "beacon.gif")
        #expect(try CodersManager.shared.decode(data, options: .init()).frameCount == 2)
        #expect(try CodersManager.shared.animatedDecoder(for: data, options: .init())?.frameCount == 2)
        #expect(CodersManager.shared.progressiveDecoder(for: data.prefix(1), options: .init()) != nil)
        let encoded = try CodersManager.shared.encode(try GIFCoder().decode(data, options: .init()), as: .gif, options: .init())
        #expect(try GIFCoder().decode(encoded, options: .init()).frames == GIFCoder().decode(data, options: .init()).frames)
    }
}
