import CTIFF
import Foundation
import TestSupport
import Testing
import WebImage

/// `TIFFCoder.decode(_:reusing:options:)` against `decode(_:options:)`: the first page lands in the caller's
/// buffer, later pages in new storage.
@Suite struct TIFFReuseTests {
    private let coder = TIFFCoder()

    private static func tiff(width: Int, height: Int, seed: UInt32 = 1) throws -> Data {
        let pixels = WebPTestImages.photo(width: width, height: height, alpha: true, seed: seed)
        return try TIFFCoder().encode(Image(pixels: pixels, hasAlpha: true), as: .tiff, options: .init())
    }

    /// 8-bit RGBA in strips of several rows: the layout decoded straight into the raster.
    private static func rgbaStrips(extraSample: Int32, alphaFor: (Int) -> UInt16) -> (data: Data, samples: [UInt16])? {
        let (width, height) = (TIFFLayoutTests.width, TIFFLayoutTests.height)
        var samples = LibTIFFReference.pattern(count: width * height * 4, limit: 256)
        for pixel in 0..<width * height {
            let alpha = alphaFor(pixel)
            samples[pixel * 4 + 3] = alpha
            // Associated alpha: colour never above alpha, so the stored samples are valid premultiplied ones.
            if alpha == 0 { for c in 0..<3 { samples[pixel * 4 + c] = 0 } }
        }
        let page = LibTIFFReference.Page(width: width, height: height, samples: samples, samplesPerPixel: 4,
                                         extraSample: extraSample)
        return (try? LibTIFFReference.write([page])).map { ($0, samples) }
    }

    @Test(arguments: ReuseTestSupport.optionVariants())
    func stillsMatchTheNormalDecode(options: ImageDecodeOptions) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        try ReuseTestSupport.expectReuseMatches(coder, try Self.tiff(width: 200, height: 150), buffer: &buffer,
                                                options: options)
        // RGB, palette, JPEG tiles (libtiff's RGBA reader), grey with alpha, 16-bit and RGBA strips into one buffer.
        for name in ["rgb-3c-8b.tiff", "palette-1c-8b.tiff", "quad-tile.jpg.tiff", "minisblack-2c-8b-alpha.tiff",
                     "rgb-3c-16b.tiff", "32bpp-None.tiff", "quad-lzw-compat.tiff"] {
            try ReuseTestSupport.expectReuseMatches(coder, try TestCorpus.data("tiff/\(name)"), buffer: &buffer,
                                                    options: options)
        }
    }

    @Test func rgbaStripsAreTheirSamplesWithEitherAlpha() throws {
        for extra in [EXTRASAMPLE_UNASSALPHA, EXTRASAMPLE_ASSOCALPHA] {
            let file = try #require(Self.rgbaStrips(extraSample: extra) { $0 % 3 == 0 ? 0 : 255 })
            var buffer = PixelBuffer(width: 1, height: 1)
            let image = try coder.decode(file.data, reusing: &buffer, options: .init())
            #expect(image.pixelFormat == .rgba8 && image.hasAlpha)
            #expect(image.pixels.bytes == file.samples.map { UInt8($0) }, "extra sample \(extra)")
        }
        // Partial alpha, unassociated: kept as stored.
        let partial = try #require(Self.rgbaStrips(extraSample: EXTRASAMPLE_UNASSALPHA) { UInt16(1 + $0 % 254) })
        var buffer = PixelBuffer(width: 1, height: 1)
        #expect(try coder.decode(partial.data, reusing: &buffer, options: .init()).pixels.bytes
                == partial.samples.map { UInt8($0) })
    }

    @Test func pagesAfterTheFirstGetTheirOwnStorage() throws {
        let data = try LibTIFFReference.write((0..<3).map(TIFFLayoutTests.rgba16Page))
        var buffer = PixelBuffer(width: 1, height: 1)
        let address = try ReuseTestSupport.expectReuseMatches(coder, data, buffer: &buffer)
        #expect(buffer.format == .rgba16 && buffer.size == PixelSize(width: TIFFLayoutTests.width, height: TIFFLayoutTests.height))
        let image = try coder.decode(data, reusing: &buffer, options: .init())
        #expect(image.frameCount == 3)
        #expect(ReuseTestSupport.address(image.frames[0].pixels) == address)
        #expect(Set(image.frames.map { ReuseTestSupport.address($0.pixels) }).count == 3)
    }

    @Test func sameSizeImagesShareOneStorage() throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        try ReuseTestSupport.expectSharedStorage(coder, try Self.tiff(width: 200, height: 150, seed: 1),
                                                 try Self.tiff(width: 200, height: 150, seed: 2), buffer: &buffer)
    }

    @Test func differentSizesFollowEachOther() throws {
        try ReuseTestSupport.expectSizesFollowEachOther(coder, [(200, 150), (31, 7), (150, 200)]) { try Self.tiff(width: $0, height: $1) }
    }

    @Test func truncatedInputThrowsTheSameErrorAndKeepsTheBuffer() throws {
        let good = try Self.tiff(width: 200, height: 150)
        let bad = good.prefix(good.count / 2)
        let expected = try #require(ReuseTestSupport.reason { try coder.decode(bad, options: .init()) })
        try ReuseTestSupport.expectFailureKeepsBufferUsable(coder, bad: bad, good: good, expected: expected)
    }

    @Test func pixelLimitFailsBeforeTouchingTheBuffer() throws {
        ReuseTestSupport.expectPixelLimitLeavesBufferAlone(coder, try Self.tiff(width: 200, height: 150),
                                                           size: PixelSize(width: 200, height: 150))
    }
}
