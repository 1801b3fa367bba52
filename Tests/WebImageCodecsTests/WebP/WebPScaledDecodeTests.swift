import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct WebPScaledDecodeTests {
    private func corpusData(_ name: String) throws -> Data {
        try TestCorpus.data("webp/\(name)")
    }

    /// libwebp scales during decode: the pixels are exactly `dwebp -resize W H -pam`'s.
    @Test func thumbnailIsLibwebpsScaledDecode() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 200, height: 200))
        let image = try WebPCoder().decode(try corpusData("lossy_alpha1.webp"), options: options)
        #expect(image.pixelSize == PixelSize(width: 200, height: 62))
        #expect(image.isThumbnail)
        #expect(image.hasAlpha)
        #expect(MD5.hex(image.pixels.pamData()) == "3e869ba925668afed42beec9a3fc28af")
    }

    @Test func stretchedThumbnailHasExactlyTheRequestedSize() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 50, height: 80), preserveAspectRatio: false)
        let image = try WebPCoder().decode(try corpusData("lossless1.webp"), options: options)
        #expect(image.pixelSize == PixelSize(width: 50, height: 80))
        #expect(MD5.hex(image.pixels.pamData()) == "a43b34e10473be13cd246f348011c5df")
    }

    @Test(arguments: [(PixelSize(width: 100, height: 100), PixelSize(width: 100, height: 31)),
                      (PixelSize(width: 64, height: 10), PixelSize(width: 33, height: 10)),
                      (PixelSize(width: 999, height: 306), PixelSize(width: 997, height: 306)),
                      (PixelSize(width: 4000, height: 4000), PixelSize(width: 1000, height: 307))])
    func aspectFitSizesFollowImageGeometry(requested: PixelSize, expected: PixelSize) throws {
        let source = PixelSize(width: 1000, height: 307)
        #expect(ImageGeometry.thumbnailSize(source: source, requested: requested, preserveAspectRatio: true) == expected)
        let image = try WebPCoder().decode(try corpusData("lossless1.webp"),
                                           options: ImageDecodeOptions(thumbnailPixelSize: requested))
        #expect(image.pixelSize == expected)
        #expect(image.isThumbnail == (expected != source))
    }

    @Test func scaleDownLimitShrinksDuringDecode() throws {
        let options = ImageDecodeOptions(scaleDownLimitBytes: 100_000)
        let image = try WebPCoder().decode(try corpusData("lossless1.webp"), options: options)
        #expect(image.pixelSize == ImageGeometry.scaledDownSize(source: PixelSize(width: 1000, height: 307),
                                                               limitBytes: 100_000, bytesPerPixel: 4, frameCount: 1))
        #expect(image.pixelSize.pixelCount * 4 <= 100_000)
        #expect(image.isThumbnail)
    }

    @Test func scaleFactorComesFromTheCacheKey() throws {
        let image = try WebPCoder().decode(try corpusData("test.webp"),
                                           options: ImageDecodeOptions(cacheKey: "https://x.test/a@2x.webp"))
        #expect(image.scale == 2)
        #expect(!image.isThumbnail)
        #expect(image.pixelSize == PixelSize(width: 128, height: 128))
    }
}
