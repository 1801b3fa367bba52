import Foundation
import TestSupport
import Testing
import WebImage

/// Thumbnails, scale-down, the pixel limit, buffer reuse and progressive loading for AVIF stills.
@Suite struct AVIFDecodeOptionsTests {
    private func corpus(_ name: String) throws -> Data {
        try TestCorpus.data("avif/\(name)")
    }

    /// The thumbnail size follows the displayed (rotated) size, with the same rules as every coder.
    @Test func thumbnailOfARotatedImageUsesTheDisplayedSize() throws {
        let options = ImageDecodeOptions(thumbnailPixelSize: .init(width: 100, height: 100))
        let image = try AVIFCoder().decode(try corpus("Ronda_rotate90.avif"), options: options)
        let expected = ImageGeometry.thumbnailSize(source: .init(width: 1080, height: 1920),
                                                   requested: .init(width: 100, height: 100), preserveAspectRatio: true)
        #expect(image.pixelSize == expected)
        #expect(image.isThumbnail)
    }

    @Test func scaleDownLimitShrinksTheImage() throws {
        let options = ImageDecodeOptions(scaleDownLimitBytes: 1_000_000)
        let image = try AVIFCoder().decode(try corpus("still_picture.avif"), options: options)
        #expect(image.pixelSize == ImageGeometry.scaledDownSize(source: .init(width: 1280, height: 720),
                                                                limitBytes: 1_000_000, bytesPerPixel: 4, frameCount: 1))
    }

    @Test func pixelLimitIsCheckedFromTheContainer() throws {
        do {
            _ = try AVIFCoder().decode(try corpus("still_picture.avif"), options: .init(maxPixelCount: 900_000))
            Issue.record("a 1280x720 image passed a 900,000-pixel limit")
        } catch let error as WebImageError {
            #expect(error.description == BadImageDataReason.tooManyPixels(width: 1280, height: 720,
                                                                          limit: 900_000).description)
        }
    }

    @Test func reusedBufferGivesTheSameImage() throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        for name in ["still_picture.avif", "kimono.rotate90.avif", "fox.profile1.10bpc.yuv444.avif"] {
            let data = try corpus(name)
            let reused = try AVIFCoder().decode(data, reusing: &buffer, options: .init())
            let fresh = try AVIFCoder().decode(data, options: .init())
            #expect(reused.pixels == fresh.pixels)
            #expect(reused.hasAlpha == fresh.hasAlpha)
        }
    }

    /// The progressive decoder shows nothing while bytes arrive and gives the one-shot image at the end.
    @Test func progressiveDecoderWaitsForTheWholeFile() throws {
        let data = try corpus("kimono.mirror-horizontal.avif")
        let decoder = try #require(CodersManager.shared.progressiveDecoder(for: data.prefix(64), options: .init()))
        for length in stride(from: 64, to: data.count, by: data.count / 7) {
            #expect(try decoder.decode(data.prefix(length), isFinished: false) == nil)
        }
        let final = try #require(try decoder.decode(data, isFinished: true))
        #expect(!final.isIncremental)
        #expect(final.pixels == (try AVIFCoder().decode(data, options: .init())).pixels)
        let truncated = try #require(CodersManager.shared.progressiveDecoder(for: data, options: .init()))
        #expect(throws: WebImageError.self) { try truncated.decode(data.prefix(data.count / 2), isFinished: true) }
    }
}
