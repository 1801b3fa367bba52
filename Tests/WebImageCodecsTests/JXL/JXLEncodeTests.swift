import Foundation
import Testing
import WebImage

@Suite struct JXLEncodeTests {
    private let coder = JXLCoder()

    @Test(arguments: [ImageEncodeEffort.fastest, .balanced])
    func losslessRoundTripIsExact(effort: ImageEncodeEffort) throws {
        for alpha in [false, true] {
            let pixels = JXLTestSupport.gradient(width: 97, height: 61, alpha: alpha)
            let data = try coder.encode(Image(pixels: pixels), as: .jxl, options: .init(lossless: true, effort: effort))
            #expect(ImageFormat(sniffing: data) == .jxl)
            let decoded = try coder.decode(data, options: .init())
            #expect(decoded.pixels == pixels)
            #expect(decoded.hasAlpha == alpha)
        }
    }

    @Test func sixteenBitLosslessRoundTripIsExact() throws {
        let pixels = PixelBuffer(width: 40, height: 30, format: .rgba16) { out in
            let samples = out.bindMemory(to: UInt16.self)
            for i in 0..<samples.count { samples[i] = UInt16(truncatingIfNeeded: i &* 2_654_435_761 >> 7) | (i % 4 == 3 ? 0x8000 : 0) }
        }
        let data = try coder.encode(Image(pixels: pixels), as: .jxl, options: .init(lossless: true))
        let decoded = try coder.decode(data, options: .init())
        #expect(decoded.pixelFormat == .rgba16)
        #expect(decoded.pixels == pixels)
    }

    @Test func lossyKeepsSizeAndAlphaAndShrinksWithQuality() throws {
        let pixels = JXLTestSupport.gradient(width: 200, height: 120, alpha: true)
        let high = try coder.encode(Image(pixels: pixels), as: .jxl, options: .init(quality: 0.9))
        let low = try coder.encode(Image(pixels: pixels), as: .jxl, options: .init(quality: 0.2, effort: .fastest))
        #expect(low.count < high.count)
        for data in [high, low] {
            let decoded = try coder.decode(data, options: .init())
            #expect(decoded.pixelSize == pixels.size)
            #expect(decoded.hasAlpha)
            #expect(decoded.pixels.containsTransparency)
        }
        let opaque = try coder.encode(Image(pixels: JXLTestSupport.gradient(width: 64, height: 64, alpha: false)),
                                      as: .jxl, options: .init(quality: 0.8))
        #expect(try coder.decode(opaque, options: .init()).hasAlpha == false)
    }

    @Test func animationKeepsFramesDurationsAndLoopCount() throws {
        let durations = [0.1, 0.25, 0.04, 1.5]
        let frames = durations.enumerated().map { index, duration in
            ImageFrame(pixels: JXLTestSupport.gradient(width: 48, height: 32, alpha: true, seed: index * 40),
                       duration: duration)
        }
        let data = try coder.encode(Image(frames: frames, loopCount: 3), as: .jxl, options: .init(lossless: true))
        let decoded = try coder.decode(data, options: .init())
        #expect(decoded.frameCount == 4)
        #expect(decoded.frameDurations == durations)
        #expect(decoded.loopCount == 3)
        #expect(decoded.frames.map(\.pixels) == frames.map(\.pixels))
        let first = try coder.encode(Image(frames: frames), as: .jxl, options: .init(lossless: true, firstFrameOnly: true))
        #expect(try coder.decode(first, options: .init()).frameCount == 1)
    }

    @Test func orientationIsWrittenAndReported() throws {
        let pixels = JXLTestSupport.gradient(width: 30, height: 20, alpha: false)
        let data = try coder.encode(Image(pixels: pixels, orientation: .right), as: .jxl, options: .init(lossless: true))
        let reported = try coder.decode(data, options: .init())
        #expect(reported.orientation == .right)
        #expect(reported.pixels == pixels)
        let upright = try coder.decode(data, options: .init(applyOrientation: true))
        #expect(upright.orientation == .up)
        #expect(upright.pixels == pixels.applying(.right))
    }

    @Test func maxPixelSizeShrinksBeforeEncoding() throws {
        let image = Image(pixels: JXLTestSupport.gradient(width: 400, height: 200, alpha: false))
        let data = try coder.encode(image, as: .jxl, options: .init(quality: 0.8, maxPixelSize: PixelSize(width: 100, height: 100)))
        #expect(try coder.decode(data, options: .init()).pixelSize == PixelSize(width: 100, height: 50))
    }

    @Test func registeredForEveryEntryPoint() throws {
        let image = Image(pixels: JXLTestSupport.gradient(width: 16, height: 16, alpha: false))
        let data = try CodersManager.shared.encode(image, as: .jxl, options: .init(lossless: true))
        #expect(try CodersManager.shared.decode(data, options: .init()).pixels == image.pixels)
        #expect(ImageFormat(fileExtension: "jxl") == .jxl)
        #expect(ImageFormat.jxl.mimeType == "image/jxl")
        #expect(throws: WebImageError.self) { try coder.encode(image, as: .png, options: .init()) }
    }
}
