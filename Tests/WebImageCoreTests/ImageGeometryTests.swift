import Testing
import WebImageCore

@Suite struct ImageGeometryTests {
    @Test func thumbnailKeepsAspectWithSDWebImageRounding() {
        #expect(ImageGeometry.thumbnailSize(source: .init(width: 5250, height: 3450), requested: .init(width: 400, height: 300),
                                            preserveAspectRatio: true) == PixelSize(width: 400, height: 263))
    }

    @Test func thumbnailNeverUpscales() {
        #expect(ImageGeometry.thumbnailSize(source: .init(width: 80, height: 60), requested: .init(width: 400, height: 400),
                                            preserveAspectRatio: true) == PixelSize(width: 80, height: 60))
    }

    @Test func stretchedThumbnailIsExactlyTheRequestedSize() {
        #expect(ImageGeometry.thumbnailSize(source: .init(width: 5250, height: 3450), requested: .init(width: 400, height: 300),
                                            preserveAspectRatio: false) == PixelSize(width: 400, height: 300))
    }

    @Test(arguments: [
        (PixelSize(width: 5250, height: 3450), 62_914_560, 1, PixelSize(width: 4892, height: 3214)),
        (PixelSize(width: 2000, height: 2000), 4_000_000, 1, PixelSize(width: 1000, height: 1000)),
        (PixelSize(width: 50, height: 50), 2_000, 5, PixelSize(width: 10, height: 10)),
    ])
    func scaleDownLimit(source: PixelSize, limit: Int, frames: Int, expected: PixelSize) {
        let options = ImageDecodeOptions(scaleDownLimitBytes: limit)
        #expect(options.targetSize(forSource: source, frameCount: frames) == expected)
    }

    @Test func scaleDownLeavesSmallImagesAlone() {
        #expect(ImageDecodeOptions(scaleDownLimitBytes: 4_000_000).targetSize(forSource: .init(width: 100, height: 100)) == nil)
    }

    @Test(arguments: [
        ("https://a.com/logo@2x.png", 2.0), ("https://a.com/logo%402x.png", 2.0), ("https://a.com/logo@3x.png", 3.0),
        ("https://a.com/logo%403x.png", 3.0), ("https://a.com/logo.png", 1.0), ("@2x.png", 1.0), ("a@2x.png", 2.0),
    ])
    func scaleFromKey(key: String, scale: Double) {
        #expect(ImageGeometry.scale(forKey: key) == scale)
        #expect(ImageDecodeOptions(cacheKey: key).resolvedScale == scale)
    }

    @Test func explicitScaleFactorWins() {
        #expect(ImageDecodeOptions(scaleFactor: 3, cacheKey: "https://a.com/logo@2x.png").resolvedScale == 3)
    }

    @Test func pixelLimitRejectsBeforeAllocating() {
        let options = ImageDecodeOptions()
        #expect(throws: WebImageError.self) { try options.checkPixelCount(width: 20_000, height: 20_000) }
        #expect(throws: WebImageError.self) { try options.checkPixelCount(width: Int.max, height: 3) }
        #expect(throws: WebImageError.self) { try options.checkPixelCount(width: 0, height: 3) }
        #expect(throws: Never.self) { try options.checkPixelCount(width: 10_000, height: 10_000) }
        #expect(throws: WebImageError.self) {
            try ImageDecodeOptions(maxPixelCount: 99).checkPixelCount(width: 10, height: 10)
        }
    }
}
