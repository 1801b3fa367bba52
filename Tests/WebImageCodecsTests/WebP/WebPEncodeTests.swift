import Foundation
import Testing
import WebImage

@Suite struct WebPEncodeTests {
    private let coder = WebPCoder()

    @Test func losslessRoundTripKeepsEveryPixelAndAlpha() throws {
        var pixels = WebPTestImages.photo(width: 97, height: 61, alpha: true)
        // Fully transparent pixels with colour: lossless must keep their RGB too.
        pixels.withUnsafeMutableBytes { raw in
            for i in stride(from: 0, to: 40 * 4, by: 4) { raw[i] = 200; raw[i + 1] = 10; raw[i + 2] = 99; raw[i + 3] = 0 }
        }
        let data = try coder.encode(Image(pixels: pixels, hasAlpha: true), as: .webp,
                                    options: ImageEncodeOptions(quality: 0.5, lossless: true))
        #expect(ImageFormat(sniffing: data) == .webp)
        let decoded = try coder.decode(data, options: .init())
        #expect(decoded.hasAlpha)
        #expect(decoded.pixels == pixels)
    }

    @Test func lossyQualityNinetyIsFaithful() throws {
        let pixels = WebPTestImages.photo(width: 256, height: 192)
        let data = try coder.encode(Image(pixels: pixels, hasAlpha: false), as: .webp,
                                    options: ImageEncodeOptions(quality: 0.9))
        let decoded = try coder.decode(data, options: .init())
        #expect(decoded.pixelSize == pixels.size)
        #expect(!decoded.hasAlpha)
        #expect(WebPTestImages.psnr(decoded.pixels, pixels) >= 30)
    }

    @Test func lossyKeepsAlpha() throws {
        let pixels = WebPTestImages.photo(width: 64, height: 64, alpha: true)
        let decoded = try coder.decode(try coder.encode(Image(pixels: pixels, hasAlpha: true), as: .webp,
                                                        options: ImageEncodeOptions(quality: 0.9)),
                                       options: .init())
        #expect(decoded.hasAlpha)
        let alphaError = stride(from: 3, to: pixels.bytes.count, by: 4)
            .map { abs(Int(pixels.bytes[$0]) - Int(decoded.pixels.bytes[$0])) }.max() ?? 0
        #expect(alphaError <= 2)
    }

    @Test func higherQualityIsLarger() throws {
        let image = Image(pixels: WebPTestImages.photo(width: 128, height: 128), hasAlpha: false)
        let low = try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: 0.1))
        let high = try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: 0.95))
        #expect(low.count < high.count)
    }

    @Test func maxFileSizePicksTheLargestQualityThatFits() throws {
        let image = Image(pixels: WebPTestImages.photo(width: 160, height: 120), hasAlpha: false)
        let full = try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: 1))
        let limit = full.count / 2
        let fitted = try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: 1, maxFileSize: limit))
        #expect(fitted.count <= limit)
        // One quality step higher would not fit (or the chosen output is already at the requested quality).
        let fittedQuality = try (0...100).first { q in
            try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: Double(q) / 100)) == fitted
        }
        let quality = try #require(fittedQuality)
        let next = try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: Double(quality + 1) / 100))
        #expect(next.count > limit)
    }

    @Test func maxFileSizeTooSmallGivesTheSmallestOutput() throws {
        let image = Image(pixels: WebPTestImages.photo(width: 160, height: 120), hasAlpha: false)
        let smallest = try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: 0))
        let fitted = try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: 0.8, maxFileSize: 10))
        #expect(fitted == smallest)
    }

    @Test func maxPixelSizeShrinksKeepingTheAspectRatio() throws {
        let image = Image(pixels: WebPTestImages.photo(width: 300, height: 200), hasAlpha: false)
        let data = try coder.encode(image, as: .webp, options: ImageEncodeOptions(maxPixelSize: PixelSize(width: 90, height: 90)))
        #expect(try coder.decode(data, options: .init()).pixelSize == PixelSize(width: 90, height: 60))
        let unchanged = try coder.encode(image, as: .webp, options: ImageEncodeOptions(maxPixelSize: PixelSize(width: 900, height: 900)))
        #expect(try coder.decode(unchanged, options: .init()).pixelSize == PixelSize(width: 300, height: 200))
    }

    @Test func sixteenBitImagesAreEncodedAsEightBit() throws {
        let eightBit = WebPTestImages.photo(width: 33, height: 17, alpha: true)
        let image = Image(pixels: eightBit.converted(to: .rgba16), hasAlpha: true)
        let data = try coder.encode(image, as: .webp, options: ImageEncodeOptions(lossless: true))
        #expect(try coder.decode(data, options: .init()).pixels == eightBit)
    }

    @Test func otherFormatsAreRefused() {
        #expect(!coder.canEncode(to: .png))
        #expect(coder.canEncode(to: .webp))
        #expect(throws: WebImageError.self) {
            try coder.encode(Image(pixels: PixelBuffer(width: 1, height: 1)), as: .jpeg, options: .init())
        }
    }

    @Test func oversizedImagesFailWithATypedError() {
        let image = Image(pixels: PixelBuffer(width: 16_384, height: 1), hasAlpha: true)
        do {
            _ = try coder.encode(image, as: .webp, options: .init())
            Issue.record("encoded a 16384-pixel-wide image")
        } catch {
            #expect((error as? WebImageError)?.code == 1100)
        }
    }
}
