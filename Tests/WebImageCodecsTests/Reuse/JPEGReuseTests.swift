import Foundation
import Testing
import WebImage

/// `JPEGCoder.decode(_:reusing:options:)` against `decode(_:options:)`.
@Suite struct JPEGReuseTests {
    private let coder = JPEGCoder()

    @Test(arguments: ReuseTestSupport.optionVariants())
    func baselineMatchesTheNormalDecode(options: ImageDecodeOptions) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        let jpeg = try JPEGTestSupport.baselineJPEG(width: 320, height: 240)
        try ReuseTestSupport.expectReuseMatches(coder, jpeg, buffer: &buffer, options: options)
        // Again into the now-used buffer, with an EXIF orientation to report or apply.
        let rotated = JPEGTestSupport.withEXIFOrientation(jpeg, 6, littleEndian: false)
        try ReuseTestSupport.expectReuseMatches(coder, rotated, buffer: &buffer, options: options)
    }

    @Test(arguments: ["progressive-512.jpg", "cmyk-adobe-32x32.jpg", "gray-64x48.jpg"])
    func fixturesMatchTheNormalDecode(name: String) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        let jpeg = try JPEGTestSupport.fixture(name)
        for options in ReuseTestSupport.optionVariants() {
            try ReuseTestSupport.expectReuseMatches(coder, jpeg, buffer: &buffer, options: options)
        }
    }

    @Test func sameSizeImagesShareOneStorage() throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        let first = try ReuseTestSupport.expectSharedStorage(
            coder, try JPEGTestSupport.baselineJPEG(width: 320, height: 240, quality: 0.9),
            try JPEGTestSupport.baselineJPEG(width: 320, height: 240, quality: 0.5), buffer: &buffer)
        // A full-size result is the buffer's raster itself, not a copy.
        let image = try coder.decode(try JPEGTestSupport.baselineJPEG(width: 320, height: 240), reusing: &buffer,
                                     options: .init())
        #expect(ReuseTestSupport.address(image.pixels) == first)
    }

    @Test func differentSizesFollowEachOther() throws {
        try ReuseTestSupport.expectSizesFollowEachOther(coder, [(320, 240), (64, 48), (500, 20), (320, 240)]) {
            try JPEGTestSupport.baselineJPEG(width: $0, height: $1)
        }
    }

    @Test func truncatedAndCorruptInputThrowTheSameErrorAndKeepTheBuffer() throws {
        let good = try JPEGTestSupport.baselineJPEG(width: 320, height: 240)
        try ReuseTestSupport.expectFailureKeepsBufferUsable(coder, bad: good.prefix(good.count / 2), good: good,
                                                            expected: .truncated)
        let corrupt = good.prefix(2) + Data(repeating: 0x42, count: 200)
        let reason = ReuseTestSupport.reason { try coder.decode(corrupt, options: .init()) }
        let expected = try #require(reason)
        try ReuseTestSupport.expectFailureKeepsBufferUsable(coder, bad: corrupt, good: good, expected: expected)
    }

    @Test func pixelLimitFailsBeforeTouchingTheBuffer() throws {
        ReuseTestSupport.expectPixelLimitLeavesBufferAlone(
            coder, try JPEGTestSupport.baselineJPEG(width: 320, height: 240), size: PixelSize(width: 320, height: 240))
    }
}
