import Foundation
import Testing
import TestSupport
import WebImage

/// ``ImageEncodeTuning``: each setting reaches its encoder as the number the effort would otherwise give, so
/// the effort's outputs are the reference (same bytes), and progressive JPEG changes the frame, not the pixels.
struct EncodeTuningTests {
    private static let image = Image(pixels: PixelBuffer(width: 48, height: 32) { out in
        for i in out.indices { out[i] = i % 4 == 3 ? 255 : UInt8((i * 37) % 251) }
    })

    private static func encode(_ format: ImageFormat, effort: ImageEncodeEffort? = nil,
                               tuning: ImageEncodeTuning = ImageEncodeTuning()) throws -> Data {
        try CodersManager.shared.encode(image, as: format, options: ImageEncodeOptions(quality: 0.7, effort: effort,
                                                                                      tuning: tuning))
    }

    @Test func progressiveJPEGHasTheSamePixelsInAProgressiveFrame() throws {
        let baseline = try Self.encode(.jpeg)
        let progressive = try Self.encode(.jpeg, tuning: ImageEncodeTuning(jpegProgressive: true))
        #expect(JPEGFrames.startOfFrame(in: [UInt8](baseline)) == 0xC0)
        #expect(JPEGFrames.startOfFrame(in: [UInt8](progressive)) == 0xC2)
        let decode = { (data: Data) in try CodersManager.shared.decode(data, options: ImageDecodeOptions()).pixels.converted(to: .rgba8) }
        #expect(try decode(progressive) == decode(baseline))
    }

    /// Adam7 PNGs hold the same pixels as plain ones, at every effort, for sizes smaller than a pass's start
    /// and odd ones, with and without alpha.
    @Test(arguments: [(1, 1), (3, 5), (9, 9), (17, 13), (2, 33)], [false, true])
    func interlacedPNGHasTheSamePixels(size: (Int, Int), alpha: Bool) throws {
        let image = Image(pixels: PixelBuffer(width: size.0, height: size.1) { out in
            for i in out.indices { out[i] = i % 4 == 3 ? (alpha ? UInt8((i * 11) % 256) : 255) : UInt8((i * 37) % 251) }
        })
        let plain = try CodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions())
        let reference = try CodersManager.shared.decode(plain, options: ImageDecodeOptions()).pixels
        for effort in ImageEncodeEffort.allCases {
            let interlaced = try CodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions(
                effort: effort, tuning: ImageEncodeTuning(pngInterlaced: true)))
            #expect(interlaced[28] == 1 && plain[28] == 0, "IHDR's interlace byte")
            #expect(try CodersManager.shared.decode(interlaced, options: ImageDecodeOptions()).pixels == reference,
                    "\(size) \(effort)")
        }
    }

    /// An image of fewer colours than the palette holds comes back exactly, a semi-transparent colour included
    /// (in `tRNS`), interlaced or not.
    @Test(arguments: [false, true])
    func aPaletteOfEnoughColoursKeepsThePixels(interlaced: Bool) throws {
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 128, 255, 255], [10, 200, 30, 128], [250, 250, 250, 255]]
        let image = Image(pixels: PixelBuffer(width: 23, height: 17) { out in
            for pixel in 0..<(out.count / 4) {
                let colour: [UInt8] = colours[(pixel / 5) % 4]
                for channel in 0..<4 { out[pixel * 4 + channel] = colour[channel] }
            }
        })
        let png = try CodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions(
            tuning: ImageEncodeTuning(pngInterlaced: interlaced, pngQuantizeColors: 16)))
        #expect(png[24] == 2 && png[25] == 3 && png[28] == (interlaced ? 1 : 0),
                "IHDR: 2-bit indices for 4 colours, palette colour type, interlace")
        #expect(PNGChunks.types(in: png).prefix(3) == ["IHDR", "PLTE", "tRNS"])
        #expect(try CodersManager.shared.decode(png, options: ImageDecodeOptions()).pixels == image.pixels)
    }

    @Test func aPaletteHoldsAtMostItsColours() throws {
        let image = Image(pixels: PixelBuffer(width: 64, height: 64) { out in
            for pixel in 0..<(out.count / 4) {
                let x: Int = pixel % 64, y: Int = pixel / 64
                out[pixel * 4] = UInt8(x * 4)
                out[pixel * 4 + 1] = UInt8(y * 4)
                out[pixel * 4 + 2] = UInt8((pixel * 7) % 256)
                out[pixel * 4 + 3] = 255
            }
        })
        let png = try CodersManager.shared.encode(image, as: .png, options: ImageEncodeOptions(
            tuning: ImageEncodeTuning(pngQuantizeColors: 8)))
        let pixels = try CodersManager.shared.decode(png, options: ImageDecodeOptions()).pixels.bytes
        var distinct = Set<UInt32>()
        for pixel in 0..<(pixels.count / 4) {
            let start: Int = pixel * 4
            distinct.insert(UInt32(pixels[start]) << 24 | UInt32(pixels[start + 1]) << 16
                            | UInt32(pixels[start + 2]) << 8 | UInt32(pixels[start + 3]))
        }
        #expect(png[24] == 4 && png[25] == 3 && distinct.count <= 8 && distinct.count > 1)
        #expect(ImageEncodeTuning(pngQuantizeColors: 1000).pngQuantizeColors == 256)
        #expect(ImageEncodeTuning(pngQuantizeColors: 1).pngQuantizeColors == 2)
        #expect([2, 3, 4, 5, 16, 17, 256].map { ImageEncodeTuning.pngPaletteBitDepth(colors: $0) } == [1, 2, 2, 4, 4, 8, 8])
    }

    /// Each tuned number gives the bytes of the effort that uses it; the other formats' settings change nothing.
    @Test(arguments: [
        (ImageFormat.webp, ImageEncodeEffort.fastest, ImageEncodeTuning(webpMethod: 0)),
        (.webp, .balanced, ImageEncodeTuning(webpMethod: 4)),
        (.avif, .fastest, ImageEncodeTuning(avifSpeed: 10)),
        (.avif, .balanced, ImageEncodeTuning(avifSpeed: 6)),
        (.jxl, .fastest, ImageEncodeTuning(jxlEffort: 1)),
        (.jxl, .balanced, ImageEncodeTuning(jxlEffort: 7)),
        (.webp, .balanced, ImageEncodeTuning(jpegProgressive: true, avifSpeed: 2, jxlEffort: 2)),
    ])
    func aTunedNumberIsTheEffortsNumber(format: ImageFormat, effort: ImageEncodeEffort, tuning: ImageEncodeTuning) throws {
        #expect(try Self.encode(format, effort: .balanced, tuning: tuning) == Self.encode(format, effort: effort))
    }

    @Test func otherNumbersGiveOtherBytes() throws {
        #expect(try Self.encode(.webp, tuning: ImageEncodeTuning(webpMethod: 6)) != Self.encode(.webp))
        #expect(try Self.encode(.webp, tuning: ImageEncodeTuning(webpPreset: .drawing)) != Self.encode(.webp))
        #expect(try Self.encode(.avif, tuning: ImageEncodeTuning(avifSpeed: 8)) != Self.encode(.avif))
        #expect(try Self.encode(.jxl, tuning: ImageEncodeTuning(jxlEffort: 3)) != Self.encode(.jxl))
    }

    @Test func numbersOutsideTheLibrariesRangesAreClamped() {
        let tuning = ImageEncodeTuning(webpMethod: 99, avifSpeed: -4, jxlEffort: 0)
        #expect(tuning.webpMethod == 6 && tuning.avifSpeed == 0 && tuning.jxlEffort == 1)
    }
}
