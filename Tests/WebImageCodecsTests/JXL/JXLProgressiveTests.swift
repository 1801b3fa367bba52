import Foundation
import TestSupport
import Testing
import WebImage

@Suite struct JXLProgressiveTests {
    private let coder = JXLCoder()

    /// Feeds `data` in `chunk`-byte steps; returns the partial images and the final one.
    private func feed(_ data: Data, chunk: Int,
                      options: ImageDecodeOptions = .init()) throws -> (partials: [Image], final: Image?) {
        let decoder = coder.makeProgressiveDecoder(options: options)
        var partials: [Image] = []
        var end = 0
        while end + chunk < data.count {
            end += chunk
            if let image = try decoder.decode(data.prefix(end), isFinished: false) { partials.append(image) }
        }
        return (partials, try decoder.decode(data, isFinished: true))
    }

    /// `progressive.jxl` (4064×2704, 457 KB) shows partial images before the final one, which equals the
    /// one-shot decode.
    @Test func progressiveFileShowsPartialImages() throws {
        let data = try TestCorpus.data("jxl/progressive.jxl")
        #expect(coder.canDecodeIncrementally(data.prefix(2)))
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 512, height: 512))
        let (partials, final) = try feed(data, chunk: 32 * 1024, options: options)
        let oneShot = try coder.decode(data, options: options)
        #expect(partials.count >= 2)
        #expect(partials.allSatisfy { $0.isIncremental && $0.pixelSize == oneShot.pixelSize })
        #expect(final?.isIncremental == false)
        #expect(final?.pixels == oneShot.pixels)
        // The first partial image is an early, blurrier form of the final one.
        #expect(partials[0].pixels != oneShot.pixels)
    }

    @Test func truncatedDownloadIsATypedError() throws {
        let data = try TestCorpus.data("jxl/progressive.jxl")
        let decoder = coder.makeProgressiveDecoder(options: .init())
        _ = try decoder.decode(data.prefix(1000), isFinished: false)
        #expect(GIFTestSupport.badDataReason { _ = try decoder.decode(data.prefix(2000), isFinished: true) } == .truncated)
    }

    /// Found by fuzzing (`FuzzImageDecode`): the first 4 bytes give a header and then `JXL_DEC_ERROR`; the next
    /// call ran libjxl's decoder again and it wrote through a null pointer. Every later call now throws instead.
    @Test func callAfterAFailedFeedThrows() {
        let data = Data([0xFF, 0x0A, 0xFF, 0xFF, 0x70, 0xFF, 0xFF, 0xFF])
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 64, height: 64), applyOrientation: true,
                                         maxPixelCount: 4_000_000, colorSpace: .preserve)
        let decoder = coder.makeProgressiveDecoder(options: options)
        _ = try? decoder.decode(data.prefix(4), isFinished: false)
        #expect(throws: (any Error).self) { try decoder.decode(data, isFinished: true) }
    }

    @Test func animationArrivesWhole() throws {
        let data = try TestCorpus.data("jxl/animation_spline.jxl")
        let (partials, final) = try feed(data, chunk: 2048)
        #expect(partials.isEmpty)
        #expect(final?.frameCount == 60)
    }
}
