import Foundation
import TestSupport
import Testing
import WebImage

/// `PNGCoder.decode(_:reusing:options:)` against `decode(_:options:)`.
@Suite struct PNGReuseTests {
    private let coder = PNGCoder()

    private static func png(width: Int, height: Int, seed: UInt32 = 1) throws -> Data {
        let pixels = WebPTestImages.photo(width: width, height: height, alpha: true, seed: seed)
        return try PNGCoder().encode(Image(pixels: pixels, hasAlpha: true), as: .png, options: .init())
    }

    private static func pngSuite(_ name: String) throws -> Data {
        try TestCorpus.data("pngsuite/png/\(name)")
    }

    @Test(arguments: ReuseTestSupport.optionVariants())
    func stillsMatchTheNormalDecode(options: ImageDecodeOptions) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        try ReuseTestSupport.expectReuseMatches(coder, try Self.png(width: 200, height: 150), buffer: &buffer,
                                                options: options)
        // 16-bit, palette, greyscale and interlaced sources into the same buffer.
        for name in ["basn6a16.png", "basn3p08.png", "basn0g04.png", "basi2c16.png"] {
            try ReuseTestSupport.expectReuseMatches(coder, try Self.pngSuite(name), buffer: &buffer, options: options)
        }
        let interlaced = try TestPaths.data(TestPaths.fixture("png", "interlaced-rgba.png"))
        try ReuseTestSupport.expectReuseMatches(coder, interlaced, buffer: &buffer, options: options)
    }

    @Test func sixteenBitSourceFillsAnRGBA16Buffer() throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        try ReuseTestSupport.expectReuseMatches(coder, try Self.pngSuite("basn6a16.png"), buffer: &buffer)
        #expect(buffer.format == .rgba16)
        #expect(buffer.size == PixelSize(width: 32, height: 32))
    }

    /// APNG falls back to the normal decode and leaves the buffer as it was.
    @Test func animationLeavesTheBufferAlone() throws {
        var buffer = PixelBuffer(width: 2, height: 2, bytes: [UInt8](repeating: 9, count: 16))
        let apng = try TestPaths.data(TestPaths.fixture("png", "pillow-animated.png"))
        try ReuseTestSupport.expectReuseMatches(coder, apng, buffer: &buffer)
        #expect(buffer == PixelBuffer(width: 2, height: 2, bytes: [UInt8](repeating: 9, count: 16)))
    }

    @Test func sameSizeImagesShareOneStorage() throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        try ReuseTestSupport.expectSharedStorage(coder, try Self.png(width: 200, height: 150, seed: 1),
                                                 try Self.png(width: 200, height: 150, seed: 2), buffer: &buffer)
    }

    @Test func differentSizesFollowEachOther() throws {
        try ReuseTestSupport.expectSizesFollowEachOther(coder, [(200, 150), (31, 7), (150, 200)]) { try Self.png(width: $0, height: $1) }
    }

    @Test func truncatedAndCorruptInputThrowTheSameErrorAndKeepTheBuffer() throws {
        let good = try Self.png(width: 200, height: 150)
        // Cut inside the image data: libpng fails while writing the buffer.
        try ReuseTestSupport.expectFailureKeepsBufferUsable(coder, bad: good.prefix(good.count * 2 / 3), good: good,
                                                            expected: .truncated)
        var corrupt = good
        for offset in stride(from: 100, to: good.count - 20, by: 97) { corrupt[offset] ^= 0x5A }
        let expected = try #require(ReuseTestSupport.reason { try coder.decode(corrupt, options: .init()) })
        try ReuseTestSupport.expectFailureKeepsBufferUsable(coder, bad: corrupt, good: good, expected: expected)
    }

    @Test func pixelLimitFailsBeforeTouchingTheBuffer() throws {
        ReuseTestSupport.expectPixelLimitLeavesBufferAlone(coder, try Self.png(width: 200, height: 150),
                                                           size: PixelSize(width: 200, height: 150))
    }
}
