import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct WebPProgressiveTests {
    private let coder = WebPCoder()

    /// Feeds `data` in `chunk`-byte steps; returns the partial images and the final one.
    private func feed(_ data: Data, chunk: Int, options: ImageDecodeOptions = .init()) throws -> (partials: [Image], final: Image?) {
        let decoder = coder.makeProgressiveDecoder(options: options)
        var partials: [Image] = []
        var end = 0
        while end < data.count {
            end = min(data.count, end + chunk)
            if end == data.count { break }
            if let image = try decoder.decode(data.prefix(end), isFinished: false) { partials.append(image) }
        }
        return (partials, try decoder.decode(data, isFinished: true))
    }

    private func lossyPhoto() throws -> Data {
        let image = Image(pixels: WebPTestImages.photo(width: 512, height: 512), hasAlpha: false)
        return try coder.encode(image, as: .webp, options: ImageEncodeOptions(quality: 0.9))
    }

    @Test func lossyImageShowsRowsBeforeTheEnd() throws {
        let data = try lossyPhoto()
        #expect(data.count > 12 * 1024)
        #expect(coder.canDecodeIncrementally(data.prefix(16)))
        let (partials, final) = try feed(data, chunk: 4096)
        #expect(partials.count >= 2)
        #expect(partials.allSatisfy { $0.isIncremental && $0.pixelSize == PixelSize(width: 512, height: 512) })
        // Rows libwebp has not reached are still transparent in the first partial image.
        #expect(partials[0].pixels.rgba8(x: 0, y: 511) == [0, 0, 0, 0])
        let oneShot = try coder.decode(data, options: .init())
        #expect(final?.isIncremental == false)
        #expect(final?.pixels == oneShot.pixels)
    }

    @Test(arguments: ["lossless1.webp", "lossless_vec_2_5.webp", "lossy_alpha1.webp"])
    func corpusImagesFinishIdenticalToOneShot(file: String) throws {
        let data = try TestCorpus.data("webp/\(file)")
        let (partials, final) = try feed(data, chunk: 1024)
        let oneShot = try coder.decode(data, options: .init())
        #expect(final?.pixels == oneShot.pixels)
        #expect(final?.hasAlpha == oneShot.hasAlpha)
        // Each partial image shows more rows than the one before.
        #expect(partials.count >= 2)
        let blankRows = partials.map(blankTrailingRows)
        #expect(zip(blankRows, blankRows.dropFirst()).allSatisfy { $0 > $1 })
    }

    /// How many rows at the bottom are still all zero bytes (not yet decoded).
    private func blankTrailingRows(_ image: Image) -> Int {
        let pixels = image.pixels
        let rows = (0..<pixels.height).reversed().prefix { y in
            pixels.bytes[y * pixels.bytesPerRow..<(y + 1) * pixels.bytesPerRow].allSatisfy { $0 == 0 }
        }
        return rows.count
    }

    @Test func thumbnailIsScaledWhileDecoding() throws {
        let data = try lossyPhoto()
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 100))
        let (partials, final) = try feed(data, chunk: 4096, options: options)
        #expect(partials.allSatisfy { $0.pixelSize == PixelSize(width: 100, height: 100) && $0.isThumbnail })
        #expect(final?.pixels == (try coder.decode(data, options: options)).pixels)
    }

    @Test func animationYieldsNothingUntilComplete() throws {
        let frames = [ImageFrame(pixels: WebPTestImages.photo(width: 64, height: 64), duration: 0.1),
                      ImageFrame(pixels: WebPTestImages.photo(width: 64, height: 64, seed: 9), duration: 0.1)]
        let data = try coder.encode(Image(frames: frames, hasAlpha: false), as: .webp, options: ImageEncodeOptions(lossless: true))
        let (partials, final) = try feed(data, chunk: 256)
        #expect(partials.isEmpty)
        #expect(final?.frameCount == 2)
        #expect(final?.frames == (try coder.decode(data, options: .init())).frames)
    }

    @Test func finishingWithMissingBytesIsTruncation() throws {
        let data = try lossyPhoto()
        let decoder = coder.makeProgressiveDecoder(options: .init())
        _ = try decoder.decode(data.prefix(5000), isFinished: false)
        do {
            _ = try decoder.decode(data.prefix(data.count - 100), isFinished: true)
            Issue.record("finished with missing bytes")
        } catch WebImageError.badImageData(.truncated) {}
    }

    @Test func tooFewBytesForTheHeaderYieldNothing() throws {
        let decoder = coder.makeProgressiveDecoder(options: .init())
        #expect(try decoder.decode(try lossyPhoto().prefix(20), isFinished: false) == nil)
    }
}
