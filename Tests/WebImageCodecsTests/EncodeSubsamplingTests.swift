import Foundation
import Testing
import TestSupport
import WebImage

/// ``ImageEncodeTuning``'s chroma subsampling (JPEG, AVIF) and WebP compression, read back from what the encoders
/// wrote: the JPEG frame header's sampling factors, the `av1C` box, the WebP chunk.
struct EncodeSubsamplingTests {
    private static let image = Image(pixels: PixelBuffer(width: 40, height: 24) { out in
        for i in out.indices { out[i] = i % 4 == 3 ? 255 : UInt8((i * 53) % 241) }
    })

    private static func encode(_ format: ImageFormat, quality: Int, lossless: Bool = false,
                               _ tuning: ImageEncodeTuning = ImageEncodeTuning()) throws -> [UInt8] {
        [UInt8](try CodersManager.shared.encode(image, as: format, options: ImageEncodeOptions(
            quality: Double(quality) / 100, lossless: lossless, tuning: tuning)))
    }

    /// libvips' rule by default: 4:2:0 below quality 90, 4:4:4 from 90; `on` and `off` at every quality.
    @Test(arguments: [
        (ImageEncodeTuning.ChromaSubsampling.auto, 89, true), (.auto, 90, false), (.auto, 100, false),
        (.on, 95, true), (.off, 30, false),
    ])
    func jpegChroma(mode: ImageEncodeTuning.ChromaSubsampling, quality: Int, subsampled: Bool) throws {
        let jpeg = try Self.encode(.jpeg, quality: quality, ImageEncodeTuning(jpegSubsampling: mode))
        #expect(JPEGFrames.lumaSampling(in: jpeg) == (subsampled ? 0x22 : 0x11))
    }

    @Test(arguments: [
        (ImageEncodeTuning.ChromaSubsampling.auto, 89, true), (.auto, 90, false), (.on, 95, true), (.off, 30, false),
    ])
    func avifChroma(mode: ImageEncodeTuning.ChromaSubsampling, quality: Int, subsampled: Bool) throws {
        let avif = try Self.encode(.avif, quality: quality, ImageEncodeTuning(avifSubsampling: mode))
        #expect(AV1Config.chromaSubsampled(in: avif) == subsampled)
    }

    @Test func losslessAVIFIsFullChromaWhateverTheMode() throws {
        let avif = try Self.encode(.avif, quality: 50, lossless: true, ImageEncodeTuning(avifSubsampling: .on))
        #expect(AV1Config.chromaSubsampled(in: avif) == false)
    }

    /// `lossless` and `near_lossless` write VP8L; lossless keeps every pixel, near-lossless at 100 too (no
    /// preprocessing), and at a lower level changes some (libwebp leaves images under 64 pixels a side alone);
    /// the tuning overrides the options' `lossless`.
    @Test func webpCompressions() throws {
        func chunk(_ webp: [UInt8]) -> String { String(decoding: webp[12..<16], as: UTF8.self) }
        func pixels(_ webp: [UInt8]) throws -> PixelBuffer {
            try CodersManager.shared.decode(Data(webp), options: ImageDecodeOptions()).pixels.converted(to: .rgba8)
        }
        let lossy = try Self.encode(.webp, quality: 80, lossless: true, ImageEncodeTuning(webpCompression: .lossy))
        let lossless = try Self.encode(.webp, quality: 80, ImageEncodeTuning(webpCompression: .lossless))
        let nearAt100 = try Self.encode(.webp, quality: 100, ImageEncodeTuning(webpCompression: .nearLossless))
        // A gradient with noise of ±4 from a linear congruential generator: near-lossless rounds such pixels
        // (pyvips 8.18.7 at near_lossless Q 40 moves them by up to 4; at 100, none).
        var seed: UInt32 = 12345
        let large = Image(pixels: PixelBuffer(width: 96, height: 80) { out in
            for i in out.indices {
                seed = (seed &* 1_103_515_245 &+ 12345) & 0x7FFF_FFFF
                let pixel = i / 4, x = pixel % 96, y = pixel / 96
                out[i] = i % 4 == 3 ? 255 : UInt8(min(255, x + 2 * y + (i % 4) * 30 + Int(seed >> 16) % 9))
            }
        })
        let nearAt40 = [UInt8](try CodersManager.shared.encode(large, as: .webp, options: ImageEncodeOptions(
            quality: 0.4, tuning: ImageEncodeTuning(webpCompression: .nearLossless))))
        #expect([chunk(lossy), chunk(lossless), chunk(nearAt100), chunk(nearAt40)] == ["VP8 ", "VP8L", "VP8L", "VP8L"])
        #expect(try pixels(lossless) == Self.image.pixels)
        #expect(try pixels(nearAt100) == Self.image.pixels)
        #expect(try pixels(nearAt40) != large.pixels)
        #expect(try Self.encode(.webp, quality: 80, lossless: true) == Self.encode(.webp, quality: 80,
                                                                                  ImageEncodeTuning(webpCompression: .lossless)))
    }

    /// Sharp YUV changes lossy WebP's bytes and nothing when lossless.
    @Test func webpSmartSubsample() throws {
        let smart = ImageEncodeTuning(webpSmartSubsample: true)
        #expect(try Self.encode(.webp, quality: 80, smart) != Self.encode(.webp, quality: 80))
        #expect(try Self.encode(.webp, quality: 80, lossless: true, smart) == Self.encode(.webp, quality: 80, lossless: true))
    }
}
