import Foundation
import Testing
import WebImage

/// `GIFCoder.decode(_:reusing:options:)` against `decode(_:options:)`: the first frame is painted into the
/// buffer, later frames get their own rasters.
@Suite struct GIFReuseTests {
    private let coder = GIFCoder()

    /// A still GIF made by our encoder (at most 256 colours, so it round-trips exactly).
    private static func gif(width: Int, height: Int, seed: UInt8 = 0) throws -> Data {
        let pixels = PixelBuffer(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    out[i] = UInt8((x * 16 / width) * 16) &+ seed
                    out[i + 1] = UInt8((y * 8 / height) * 32)
                    out[i + 2] = seed
                    out[i + 3] = 255
                }
            }
        }
        return try GIFCoder().encode(Image(pixels: pixels, hasAlpha: false), as: .gif, options: .init())
    }

    /// Offset of the first image's LZW minimum code size: after the screen, the global colour table, any
    /// extensions, the image descriptor and its local colour table.
    private static func lzwCodeSizeOffset(_ gif: Data) throws -> Int {
        let bytes = [UInt8](gif)
        func tableSize(_ packed: UInt8) -> Int { packed & 0x80 != 0 ? 3 << (Int(packed & 7) + 1) : 0 }
        var offset = 13 + tableSize(bytes[10])
        while bytes[offset] == 0x21 {
            offset += 2
            while bytes[offset] != 0 { offset += Int(bytes[offset]) + 1 }
            offset += 1
        }
        try #require(bytes[offset] == 0x2C)
        return offset + 10 + tableSize(bytes[offset + 9])
    }

    @Test(arguments: ReuseTestSupport.optionVariants())
    func corpusFilesMatchTheNormalDecode(options: ImageDecodeOptions) throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        for name in ["moon_impact.gif", "interlaced.gif", "alpha_gif_a.gif", "anim-gr.gif", "beacon.gif"] {
            try ReuseTestSupport.expectReuseMatches(coder, try GIFTestSupport.corpus("samples", name),
                                                    buffer: &buffer, options: options)
        }
    }

    /// The buffer ends up holding the first frame; the animation's other frames are separate rasters.
    @Test func animationPaintsItsFirstFrameIntoTheBuffer() throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        let data = try GIFTestSupport.corpus("samples", "moon_impact.gif")
        let image = try coder.decode(data, reusing: &buffer, options: .init())
        #expect(image.frameCount > 1)
        #expect(buffer == image.pixels)
        #expect(ReuseTestSupport.address(buffer) == ReuseTestSupport.address(image.pixels))
        #expect(ReuseTestSupport.address(image.frames[1].pixels) != ReuseTestSupport.address(buffer))
    }

    @Test func sameSizeImagesShareOneStorage() throws {
        var buffer = PixelBuffer(width: 1, height: 1)
        try ReuseTestSupport.expectSharedStorage(coder, try Self.gif(width: 120, height: 90, seed: 0),
                                                 try Self.gif(width: 120, height: 90, seed: 7), buffer: &buffer)
        let moon = try GIFTestSupport.corpus("samples", "moon_impact.gif")
        try ReuseTestSupport.expectSharedStorage(coder, moon, moon, buffer: &buffer,
                                                 options: ImageDecodeOptions(firstFrameOnly: true))
    }

    @Test func differentSizesFollowEachOther() throws {
        try ReuseTestSupport.expectSizesFollowEachOther(coder, [(120, 90), (5, 3), (90, 120)]) { try Self.gif(width: $0, height: $1) }
    }

    @Test func truncatedAndCorruptInputThrowTheSameErrorAndKeepTheBuffer() throws {
        let good = try Self.gif(width: 120, height: 90)
        try ReuseTestSupport.expectFailureKeepsBufferUsable(coder, bad: good.prefix(good.count / 2), good: good,
                                                            expected: .truncated)
        // An LZW minimum code size of 12 is invalid: giflib fails on the first frame's data.
        var corrupt = good
        corrupt[try Self.lzwCodeSizeOffset(good)] = 12
        let expected = try #require(ReuseTestSupport.reason { try coder.decode(corrupt, options: .init()) })
        try ReuseTestSupport.expectFailureKeepsBufferUsable(coder, bad: corrupt, good: good, expected: expected)
    }

    @Test func pixelLimitFailsBeforeTouchingTheBuffer() throws {
        ReuseTestSupport.expectPixelLimitLeavesBufferAlone(coder, try Self.gif(width: 120, height: 90),
                                                           size: PixelSize(width: 120, height: 90))
    }
}
