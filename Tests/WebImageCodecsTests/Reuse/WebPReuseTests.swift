import Foundation
import TestSupport
import Testing
import WebImage

/// `WebPCoder.decode(_:reusing:options:)` against `decode(_:options:)`, lossy and lossless.
@Suite struct WebPReuseTests {
    private let coder = WebPCoder()

    private static func webp(width: Int, height: Int, lossless: Bool, alpha: Bool? = nil,
                             seed: UInt32 = 1) throws -> Data {
        let alpha = alpha ?? lossless
        let pixels = WebPTestImages.photo(width: width, height: height, alpha: alpha, seed: seed)
        return try WebPCoder().encode(Image(pixels: pixels, hasAlpha: alpha), as: .webp,
                                      options: ImageEncodeOptions(quality: 0.8, lossless: lossless))
    }

    @Test(arguments: ReuseTestSupport.optionVariants(), [false, true])
    func stillsMatchTheNormalDecode(options: ImageDecodeOptions, lossless: Bool) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        try ReuseTestSupport.expectReuseMatches(coder, try Self.webp(width: 200, height: 150, lossless: lossless),
                                                buffer: &buffer, options: options)
        for name in ["lossless_vec_1_0.webp", "vp80-00-comprehensive-001.webp", "alpha_filter_1.webp"] {
            try ReuseTestSupport.expectReuseMatches(coder, try TestCorpus.data("webp/\(name)"),
                                                    buffer: &buffer, options: options)
        }
    }

    /// An animation falls back to the normal decode and leaves the buffer as it was.
    @Test func animationLeavesTheBufferAlone() throws {
        var buffer = PixelBuffer(width: 2, height: 2, bytes: [UInt8](repeating: 9, count: 16))
        let animated = try TestPaths.data(TestPaths.fixture("webp", "alpha_anim_img2webp.webp"))
        try ReuseTestSupport.expectReuseMatches(coder, animated, buffer: &buffer)
        #expect(buffer == PixelBuffer(width: 2, height: 2, bytes: [UInt8](repeating: 9, count: 16)))
    }

    @Test(arguments: [false, true])
    func sameSizeImagesShareOneStorage(lossless: Bool) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        try ReuseTestSupport.expectSharedStorage(coder, try Self.webp(width: 200, height: 150, lossless: lossless, seed: 1),
                                                 try Self.webp(width: 200, height: 150, lossless: lossless, seed: 2),
                                                 buffer: &buffer)
    }

    @Test func differentSizesFollowEachOther() throws {
        // The small one lossless: the two WebP decoders share one buffer.
        try ReuseTestSupport.expectSizesFollowEachOther(coder, [(200, 150), (17, 9), (150, 200)]) {
            try Self.webp(width: $0, height: $1, lossless: $0 == 17)
        }
    }

    @Test(arguments: [false, true])
    func truncatedAndCorruptInputThrowTheSameErrorAndKeepTheBuffer(lossless: Bool) throws {
        let good = try Self.webp(width: 200, height: 150, lossless: lossless, alpha: true)
        try ReuseTestSupport.expectFailureKeepsBufferUsable(coder, bad: good.prefix(good.count / 2), good: good,
                                                            expected: .truncated)
        var corrupt = good
        if lossless {
            for offset in stride(from: 40, to: good.count, by: 7) { corrupt[offset] ^= 0xA5 }
        } else {
            // VP8 tolerates damaged coefficients, but an alpha header with reserved bits set fails mid-decode.
            let alpha = try #require(good.firstRange(of: Data("ALPH".utf8)))
            corrupt[alpha.upperBound + 4] = 0xFF
        }
        let expected = try #require(ReuseTestSupport.reason { try coder.decode(corrupt, options: .init()) })
        try ReuseTestSupport.expectFailureKeepsBufferUsable(coder, bad: corrupt, good: good, expected: expected)
    }

    @Test func pixelLimitFailsBeforeTouchingTheBuffer() throws {
        ReuseTestSupport.expectPixelLimitLeavesBufferAlone(
            coder, try Self.webp(width: 200, height: 150, lossless: false), size: PixelSize(width: 200, height: 150))
    }
}
