import Foundation
import Testing
import TestSupport
import WebImage

/// Incremental decoding: scans of a progressive JPEG, rows of a baseline one, and a final image equal to
/// the one-shot decode.
@Suite struct JPEGProgressiveTests {
    /// Feeds `data` in `chunk`-byte steps (each call gets everything so far), then the whole as finished.
    private static func feed(_ data: Data, chunk: Int, options: ImageDecodeOptions = .init()) throws
        -> (partials: [Image], final: Image?) {
        let decoder = JPEGCoder().makeProgressiveDecoder(options: options)
        var partials: [Image] = []
        for end in stride(from: chunk, to: data.count, by: chunk) {
            if let image = try decoder.decode(data.prefix(end), isFinished: false) { partials.append(image) }
        }
        return (partials, try decoder.decode(data, isFinished: true))
    }

    @Test func progressiveYieldsScansThenTheOneShotImage() throws {
        let data = try JPEGTestSupport.fixture("progressive-512.jpg")
        let (partials, fed) = try Self.feed(data, chunk: 4096)
        #expect(partials.count >= 2)
        #expect(partials.allSatisfy { $0.isIncremental && $0.pixelSize == PixelSize(width: 512, height: 512) })
        // Every scan redraws the whole picture, so partials are opaque; later ones are closer to the end.
        #expect(partials.allSatisfy { !$0.pixels.containsTransparency })
        let final = try #require(fed)
        #expect(!final.isIncremental)
        let oneShot = try JPEGCoder().decode(data, options: .init())
        #expect(final.pixels == oneShot.pixels)
        let first = JPEGTestSupport.psnr(partials[0].pixels, final.pixels)
        let last = JPEGTestSupport.psnr(partials[partials.count - 1].pixels, final.pixels)
        #expect(first < last)
    }

    @Test func baselineYieldsGrowingRowsThenTheOneShotImage() throws {
        let data = try JPEGTestSupport.baselineJPEG(width: 512, height: 512)
        let (partials, fed) = try Self.feed(data, chunk: 4096)
        #expect(partials.count >= 2)
        let final = try #require(fed)
        #expect(final.pixels == (try JPEGCoder().decode(data, options: .init())).pixels)
        for partial in partials {
            #expect(partial.isIncremental && partial.hasAlpha)
            // Decoded rows are already final; rows not yet reached are transparent.
            let top = partial.pixels.rgba8(x: 100, y: 0), bottom = partial.pixels.rgba8(x: 100, y: 511)
            #expect(top == final.pixels.rgba8(x: 100, y: 0))
            #expect(bottom == [0, 0, 0, 0])
        }
        let transparentRows = partials.map { partial in
            (0..<512).filter { partial.pixels.rgba8(x: 0, y: $0)[3] == 0 }.count
        }
        #expect(transparentRows == transparentRows.sorted(by: >))
        #expect(transparentRows.first != transparentRows.last)
    }

    @Test func wholeBufferAtOnceGivesTheFinalImage() throws {
        let data = try JPEGTestSupport.fixture("progressive-512.jpg")
        let decoder = JPEGCoder().makeProgressiveDecoder(options: .init())
        let image = try #require(try decoder.decode(data, isFinished: true))
        #expect(!image.isIncremental)
        #expect(image.pixels == (try JPEGCoder().decode(data, options: .init())).pixels)
        // Asking again returns the same final image.
        #expect(try decoder.decode(data, isFinished: true) === image)
    }

    /// A CMYK file's partial and final images convert through its profile, as the one-shot decode does.
    @Test func cmykWithAProfileConvertsLikeTheOneShotDecode() throws {
        let plainData = try JPEGTestSupport.fixture("cmyk-adobe-32x32.jpg")
        let data = JPEGTestSupport.withICCProfile(plainData, try TestProfiles.adobeCMYK())
        let oneShot = try JPEGCoder().decode(data, options: .init())
        #expect(oneShot.colorProfileIssue == nil)
        #expect(oneShot.pixels != (try JPEGCoder().decode(plainData, options: .init())).pixels, "the profile matters")
        let decoder = JPEGCoder().makeProgressiveDecoder(options: .init())
        // The first partial image with some rows decoded and others not yet.
        var partial: Image?, rows: [Int] = []
        for end in stride(from: data.count - plainData.count, to: data.count, by: 8) where partial == nil {
            guard let image = try decoder.decode(data.prefix(end), isFinished: false) else { continue }
            rows = (0..<32).filter { y in (0..<32).allSatisfy { image.pixels.rgba8(x: $0, y: y)[3] == 255 } }
            if !rows.isEmpty && rows.count < 32 { partial = image }
        }
        let shown = try #require(partial)
        for y in rows {
            #expect((0..<32).allSatisfy { shown.pixels.rgba8(x: $0, y: y) == oneShot.pixels.rgba8(x: $0, y: y) }, "row \(y)")
        }
        let final = try #require(try decoder.decode(data, isFinished: true))
        #expect(final.pixels == oneShot.pixels)
        #expect(final.colorProfileIssue == nil && final.iccProfile == nil)
    }

    @Test func nothingUntilTheHeaderArrives() throws {
        let data = try JPEGTestSupport.fixture("progressive-512.jpg")
        let decoder = JPEGCoder().makeProgressiveDecoder(options: .init())
        for end in [2, 20, 200] { #expect(try decoder.decode(data.prefix(end), isFinished: false) == nil) }
    }

    @Test(arguments: ["progressive-512.jpg", "cmyk-adobe-32x32.jpg", "gray-64x48.jpg"])
    func finalMatchesOneShotWithThumbnailAndOrientation(fixture: String) throws {
        let data = JPEGTestSupport.withEXIFOrientation(try JPEGTestSupport.fixture(fixture), 6, littleEndian: true)
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 60, height: 60), applyOrientation: true)
        let (partials, final) = try Self.feed(data, chunk: 1024, options: options)
        let oneShot = try JPEGCoder().decode(data, options: options)
        let image = try #require(final)
        #expect(image.pixels == oneShot.pixels)
        #expect(image.isThumbnail == oneShot.isThumbnail)
        #expect(partials.allSatisfy { $0.pixelSize == oneShot.pixelSize && $0.orientation == .up })
    }

    @Test func partialImagesGoThroughTheThumbnailPath() throws {
        let data = try JPEGTestSupport.fixture("progressive-512.jpg")
        let options = ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 100))
        let (partials, final) = try Self.feed(data, chunk: 4096, options: options)
        #expect(!partials.isEmpty)
        #expect(partials.allSatisfy { $0.pixelSize == PixelSize(width: 100, height: 100) && $0.isThumbnail })
        #expect(final?.pixelSize == PixelSize(width: 100, height: 100))
    }

    /// Tiny steps cut every marker segment, skipped APPn body and Huffman run at every possible place:
    /// the suspending source must resume exactly where libjpeg stopped.
    @Test(arguments: [("gray-64x48.jpg", 1), ("cmyk-adobe-32x32.jpg", 1), ("progressive-512.jpg", 97)])
    func resumesAfterEveryCut(fixture: String, step: Int) throws {
        let data = JPEGTestSupport.withEXIFOrientation(try JPEGTestSupport.fixture(fixture), 8, littleEndian: false)
        let (_, fed) = try Self.feed(data, chunk: step)
        let image = try #require(fed)
        let oneShot = try JPEGCoder().decode(data, options: .init())
        #expect(image.pixels == oneShot.pixels)
        #expect(image.orientation == .left)
    }
}
