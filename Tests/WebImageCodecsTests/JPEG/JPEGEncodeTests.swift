import Foundation
import Testing
import WebImage

/// Encoding: quality, round trip fidelity, alpha flattening, size limits.
@Suite struct JPEGEncodeTests {
    @Test func roundTripAtQuality90KeepsPSNRAbove35dB() throws {
        let source = JPEGTestSupport.smoothImage(width: 256, height: 256)
        let data = try JPEGCoder().encode(Image(pixels: source, hasAlpha: false), as: .jpeg, options: .init(quality: 0.9))
        #expect(data.starts(with: [0xFF, 0xD8, 0xFF]))
        let decoded = try JPEGCoder().decode(data, options: .init())
        #expect(decoded.pixelSize == source.size)
        #expect(JPEGTestSupport.psnr(source, decoded.pixels) >= 35)
    }

    @Test func higherQualityIsLargerAndCloser() throws {
        let source = Image(pixels: JPEGTestSupport.smoothImage(width: 128, height: 128), hasAlpha: false)
        let low = try JPEGCoder().encode(source, as: .jpeg, options: .init(quality: 0.2))
        let high = try JPEGCoder().encode(source, as: .jpeg, options: .init(quality: 0.95))
        #expect(low.count < high.count)
        let lowPSNR = JPEGTestSupport.psnr(source.pixels, try JPEGCoder().decode(low, options: .init()).pixels)
        let highPSNR = JPEGTestSupport.psnr(source.pixels, try JPEGCoder().decode(high, options: .init()).pixels)
        #expect(lowPSNR < highPSNR)
        // Quality 0 maps to libjpeg quality 1, still a valid file.
        let zero = try JPEGCoder().encode(source, as: .jpeg, options: .init(quality: 0))
        #expect(try JPEGCoder().decode(zero, options: .init()).pixelSize == PixelSize(width: 128, height: 128))
    }

    @Test func transparencyIsFlattenedOntoBackground() throws {
        let clear = Image(pixels: PixelBuffer(width: 16, height: 16), hasAlpha: true)
        let white = try JPEGCoder().decode(try JPEGCoder().encode(clear, as: .jpeg, options: .init()), options: .init())
        #expect(white.pixels.rgba8(x: 8, y: 8) == [255, 255, 255, 255])
        let red = RGBAColor(red: 255, green: 0, blue: 0)
        let onRed = try JPEGCoder().decode(try JPEGCoder().encode(clear, as: .jpeg, options: .init(backgroundColor: red)),
                                           options: .init())
        let pixel = onRed.pixels.rgba8(x: 8, y: 8)
        #expect(pixel[0] >= 250 && pixel[1] <= 5 && pixel[2] <= 5)
    }

    @Test func maxPixelSizeShrinksKeepingAspect() throws {
        let source = Image(pixels: JPEGTestSupport.smoothImage(width: 300, height: 200), hasAlpha: false)
        let data = try JPEGCoder().encode(source, as: .jpeg, options: .init(maxPixelSize: PixelSize(width: 150, height: 150)))
        #expect(try JPEGCoder().decode(data, options: .init()).pixelSize == PixelSize(width: 150, height: 100))
        let unchanged = try JPEGCoder().encode(source, as: .jpeg, options: .init(maxPixelSize: PixelSize(width: 1000, height: 1000)))
        #expect(try JPEGCoder().decode(unchanged, options: .init()).pixelSize == PixelSize(width: 300, height: 200))
    }

    @Test func maxFileSizePicksTheLargestQualityThatFits() throws {
        let source = Image(pixels: JPEGTestSupport.smoothImage(width: 200, height: 200), hasAlpha: false)
        let best = try JPEGCoder().encode(source, as: .jpeg, options: .init(quality: 1))
        let limit = best.count / 3
        let fitted = try JPEGCoder().encode(source, as: .jpeg, options: .init(quality: 1, maxFileSize: limit))
        #expect(fitted.count <= limit)
        // The search lands on a quality whose next step up does not fit.
        let sizes = try (1...100).map { q in
            try JPEGCoder().encode(source, as: .jpeg, options: .init(quality: Double(q) / 100))
        }
        let chosen = try #require(sizes.firstIndex(of: fitted))
        #expect(chosen < 99 && sizes[chosen + 1].count > limit)

        let impossible = try JPEGCoder().encode(source, as: .jpeg, options: .init(maxFileSize: 10))
        #expect(impossible == sizes[0])
    }

    @Test func sixteenBitAndAnimatedInputsEncodeTheirFirstFrameIn8Bit() throws {
        let eight = JPEGTestSupport.smoothImage(width: 64, height: 64)
        let sixteen = eight.converted(to: .rgba16)
        let frames = [ImageFrame(pixels: sixteen, duration: 0.1), ImageFrame(pixels: PixelBuffer(width: 64, height: 64), duration: 0.1)]
        let data = try JPEGCoder().encode(Image(frames: frames, hasAlpha: false), as: .jpeg, options: .init())
        let plain = try JPEGCoder().encode(Image(pixels: eight, hasAlpha: false), as: .jpeg, options: .init())
        #expect(data == plain)
    }

    @Test func otherFormatsAreRefused() {
        let image = Image(pixels: PixelBuffer(width: 1, height: 1), hasAlpha: true)
        let error = JPEGTestSupport.webImageError { _ = try JPEGCoder().encode(image, as: .png, options: .init()) }
        #expect(error?.code == 1100)
    }
}
