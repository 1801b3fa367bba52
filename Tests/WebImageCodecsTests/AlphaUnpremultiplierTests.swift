import Testing
@testable import WebImageCodecs

/// cairo's premultiplied native-endian `ARGB32` words made straight RGBA bytes: the SVG and PDF rasterizers'
/// one conversion. The input is written as native words, so the expectations hold on either byte order.
@Suite struct AlphaUnpremultiplierTests {
    @Test func cairoWordsBecomeStraightRGBA() {
        let words: [UInt32] = [0xFF10_2030,  // opaque: only reordered
                               0x8040_2000,  // half alpha: divided, rounded to nearest
                               0x0000_0000,  // transparent
                               0x0101_0101,  // the smallest alpha
                               0x10FF_0000]  // colour over alpha (not premultiplied): clamped
        var raster = [UInt8](repeating: 0, count: words.count * 4)
        raster.withUnsafeMutableBytes { raw in
            for (index, word) in words.enumerated() { raw.storeBytes(of: word, toByteOffset: index * 4, as: UInt32.self) }
            AlphaUnpremultiplier.straightRGBA(fromCairoARGB32: raw)
        }
        #expect(raster == [0x10, 0x20, 0x30, 0xFF,
                           128, 64, 0, 0x80,
                           0, 0, 0, 0,
                           255, 255, 255, 1,
                           255, 0, 0, 0x10])
    }
}
