import Foundation
import Testing
import TestSupport
import WebImage

/// Decoders poll the current ``WorkCancellation``: a cancelled one stops them with the cancelled error (2002),
/// and one that is never cancelled changes nothing in what they decode.
@Suite struct DecodeCancellationTests {
    typealias Support = CancellationTestSupport

    @Test(arguments: [ImageFormat.jpeg, .png, .gif, .webp, .avif, .heic, .jxl])
    func anAlreadyCancelledTokenStopsEveryDecoder(_ format: ImageFormat) throws {
        let coder = Support.coder(for: format)
        let data = try coder.encode(Image(pixels: WebPTestImages.photo(width: 64, height: 48)), as: format,
                                    options: ImageEncodeOptions(quality: 0.9))
        let token = WorkCancellation()
        token.cancel()
        #expect(Support.isCancelled { try Support.under(token) { try coder.decode(data, options: ImageDecodeOptions()) } })
        var buffer = PixelBuffer(width: 1, height: 1)
        #expect(Support.isCancelled {
            try Support.under(token) { try coder.decode(data, reusing: &buffer, options: ImageDecodeOptions()) }
        })
        #expect(Support.isCancelled {
            try Support.under(token) { try CodersManager.shared.decode(data, options: ImageDecodeOptions()) }
        })
    }

    /// Under a token, TurboJPEG's and libwebp's one-shot decodes give way to libjpeg with its progress monitor
    /// and libwebp's incremental decoder: the pixels are the same.
    @Test func aTokenNeverCancelledLeavesThePixelsAsTheyAre() throws {
        let sources: [(Data, any ImageCoding)] = [
            (try Support.progressiveJPEG(width: 1200, height: 1000), JPEGCoder()),
            (try JPEGTestSupport.baselineJPEG(width: 1200, height: 1000), JPEGCoder()),
            (try WebPCoder().encode(Image(pixels: WebPTestImages.photo(width: 600, height: 400)), as: .webp,
                                    options: ImageEncodeOptions(quality: 0.8)), WebPCoder()),
            (try WebPCoder().encode(Image(pixels: WebPTestImages.photo(width: 600, height: 400)), as: .webp,
                                    options: ImageEncodeOptions(lossless: true)), WebPCoder()),
        ]
        for (data, coder) in sources {
            let plain = try coder.decode(data, options: ImageDecodeOptions())
            let token = WorkCancellation()
            let scoped = try token.run { try coder.decode(data, options: ImageDecodeOptions()) }
            #expect(scoped.pixels.bytes == plain.pixels.bytes)
            #expect(scoped.pixelSize == plain.pixelSize)
            #expect(token.checkCount > 1)
        }
    }

    @Test func aProgressiveJPEGStopsMidDecode() throws {
        let counts = try Support.stopsHalfway(try Support.progressiveJPEG(width: 4000, height: 3000), with: JPEGCoder())
        #expect(counts.whole > 100)
        #expect(counts.stopped < counts.whole)
    }

    @Test func aBaselineJPEGStopsMidDecode() throws {
        let counts = try Support.stopsHalfway(try JPEGTestSupport.baselineJPEG(width: 4000, height: 3000), with: JPEGCoder())
        #expect(counts.whole > 100)
        #expect(counts.stopped < counts.whole)
    }

    /// libpng's row loop polls once a row; the row-by-row thumbnail path too.
    @Test func aLargePNGStopsMidDecode() throws {
        let data = LargeImages.png(width: 4000, height: 4000, alpha: true)
        let full = try Support.stopsHalfway(data, with: PNGCoder())
        #expect(full.whole >= 4000)
        #expect(full.stopped < full.whole)
        let thumbnail = try Support.stopsHalfway(data, with: PNGCoder(),
                                                 options: ImageDecodeOptions(thumbnailPixelSize: PixelSize(width: 100, height: 100)))
        #expect(thumbnail.whole >= 4000)
        #expect(thumbnail.stopped < thumbnail.whole)
    }

    @Test func aLargeGIFStopsMidDecode() throws {
        let counts = try Support.stopsHalfway(LargeImages.gif(width: 4000, height: 4000), with: GIFCoder())
        #expect(counts.whole >= 4000)
        #expect(counts.stopped < counts.whole)
    }

    @Test func aLargeWebPStopsMidDecode() throws {
        let data = try WebPCoder().encode(Image(pixels: WebPTestImages.photo(width: 2000, height: 1500)), as: .webp,
                                          options: ImageEncodeOptions(quality: 0.9))
        let counts = try Support.stopsHalfway(data, with: WebPCoder())
        #expect(counts.whole > 4)
        #expect(counts.stopped < counts.whole)
    }

    /// Animations stop between frames (libavif and libjxl decode a frame in one call).
    @Test(arguments: [ImageFormat.gif, .png, .webp, .avif, .jxl])
    func anAnimationStopsBetweenFrames(_ format: ImageFormat) throws {
        let frames = (1...6).map {
            ImageFrame(pixels: WebPTestImages.photo(width: 48, height: 32, seed: UInt32($0)), duration: 0.1)
        }
        let coder = Support.coder(for: format)
        let data = try coder.encode(Image(frames: frames), as: format, options: ImageEncodeOptions(quality: 0.9))
        let counts = try Support.stopsHalfway(data, with: coder)
        #expect(counts.whole >= 6)
        #expect(counts.stopped < counts.whole)
    }
}
