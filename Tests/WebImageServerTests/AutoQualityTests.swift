import Foundation
import Testing
import TestSupport
import WebImage
@testable import WebImageServer

/// ``DSSIM`` against values of the same definition computed in numpy (float64; its SSIM map's interior agreed
/// with scikit-image's Gaussian `structural_similarity` to 1e-14), on rasters both build from the same integer
/// formulas; and JPEG's quality ordering on a photo-like raster.
@Suite struct DSSIMTests {
    /// Relative tolerance of the pinned values: both are float64 of one definition, differing by the order
    /// of a few sums and libm's last bits.
    static let tolerance = 1e-9

    /// Gradients, a ripple and a 4 × 4 checker; alpha rising left to right when `alpha`, else opaque.
    static func reference(_ width: Int, _ height: Int, alpha: Bool = false) -> PixelBuffer {
        raster(width, height) { x, y in
            [x * 200 / max(1, width - 1) + (x * x + 3 * y) % 31, y * 255 / max(1, height - 1),
             ((x / 4 + y / 4) % 2) * 160 + 40, alpha ? x * 255 / max(1, width - 1) : 255]
        }
    }

    /// Each colour channel moved by ((7x + 13y + 5c) mod 11 − 5) × 4, clamped.
    static func noisy(_ image: PixelBuffer) -> PixelBuffer {
        raster(image.width, image.height) { x, y in
            let pixel = image.rgba8(x: x, y: y)
            return (0..<3).map { c in Int(pixel[c]) + ((x * 7 + y * 13 + c * 5) % 11 - 5) * 4 } + [Int(pixel[3])]
        }
    }

    /// A 3 × 3 box blur of the colours, edges clamped, rounded as (sum + 4) / 9.
    static func blurred(_ image: PixelBuffer) -> PixelBuffer {
        raster(image.width, image.height) { x, y in
            let near = (-1...1).flatMap { dy in
                (-1...1).map { dx in
                    image.rgba8(x: min(max(x + dx, 0), image.width - 1), y: min(max(y + dy, 0), image.height - 1))
                }
            }
            return (0..<3).map { c in (near.reduce(0) { $0 + Int($1[c]) } + 4) / 9 } + [Int(near[4][3])]
        }
    }

    /// Moved one pixel right, the first column kept.
    static func shifted(_ image: PixelBuffer) -> PixelBuffer {
        raster(image.width, image.height) { x, y in image.rgba8(x: max(x - 1, 0), y: y).map(Int.init) }
    }

    /// The same colours with alpha rising top to bottom.
    static func realpha(_ image: PixelBuffer) -> PixelBuffer {
        raster(image.width, image.height) { x, y in
            Array(image.rgba8(x: x, y: y).prefix(3).map(Int.init)) + [y * 255 / max(1, image.height - 1)]
        }
    }

    static func raster(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [Int]) -> PixelBuffer {
        let bytes = (0..<height).flatMap { y in
            (0..<width).flatMap { x in pixel(x, y).map { UInt8(min(max($0, 0), 255)) } }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    static func expectClose(_ value: Double, _ pinned: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(value - pinned) <= tolerance * pinned, "\(value) vs numpy's \(pinned)",
                sourceLocation: sourceLocation)
    }

    @Test func identicalPixelsAreExactlyZero() throws {
        let image = Self.reference(32, 24)
        #expect(try DSSIM.dissimilarity(image, image) == 0)
        #expect(try DSSIM.dissimilarity(Self.reference(3, 2, alpha: true), Self.reference(3, 2, alpha: true)) == 0)
        // A 16-bit raster is compared as its 8-bit rounding.
        #expect(try DSSIM.dissimilarity(image.converted(to: .rgba16), image) == 0)
    }

    @Test func matchesTheNumpyReference() throws {
        let image = Self.reference(32, 24)
        Self.expectClose(try DSSIM.dissimilarity(image, Self.noisy(image)), 0.06809751746840442)
        Self.expectClose(try DSSIM.dissimilarity(image, Self.blurred(image)), 0.034759433395355144)
        Self.expectClose(try DSSIM.dissimilarity(image, Self.shifted(image)), 0.0707473621047306)
        let translucent = Self.reference(32, 24, alpha: true)
        Self.expectClose(try DSSIM.dissimilarity(translucent, Self.realpha(translucent)), 0.24667999715501482)
    }

    /// Sides under the window's radius: the mirroring repeats.
    @Test func matchesTheNumpyReferenceOnTinyRasters() throws {
        let small = Self.reference(3, 2), single = Self.reference(1, 1)
        Self.expectClose(try DSSIM.dissimilarity(small, Self.noisy(small)), 0.0003770289286648687)
        Self.expectClose(try DSSIM.dissimilarity(single, Self.noisy(single)), 0.10531638887529982)
    }

    @Test func isSymmetric() throws {
        let image = Self.reference(32, 24), other = Self.noisy(image)
        #expect(try DSSIM.dissimilarity(image, other) == DSSIM.dissimilarity(other, image))
    }

    @Test func fromSSIMIsHalfTheDistanceFromOne() {
        #expect(DSSIM.fromSSIM(1) == 0)
        #expect(DSSIM.fromSSIM(0.5) == 0.25)
        #expect(DSSIM.fromSSIM(0) == 0.5)
        #expect(DSSIM.fromSSIM(-1) == 1)
        #expect(DSSIM.fromSSIM(1 + 1e-12) == 0, "rounding above 1 is no negative distance")
    }

    /// Sky-like gradients, a disc, fine stripes and grain: a raster JPEG degrades the way it degrades photos.
    static func photo(_ width: Int, _ height: Int) -> PixelBuffer {
        var random = SplitMix64(seed: 7)
        return raster(width, height) { x, y in
            let grain = Int(random.next() % 25) - 12
            let dx = x - width / 3, dy = y - height / 2
            let base = dx * dx + dy * dy < height * height / 16 ? [200, 80, 60]
                : [40 + x * 150 / width, 90 + y * 100 / height, 160 - y * 80 / height]
            let stripes = x > 2 * width / 3 && (x / 3) % 2 == 0 ? 40 : 0
            return base.map { $0 + grain + stripes } + [255]
        }
    }

    @Test func fallsAsJPEGQualityRises() throws {
        let image = Self.photo(320, 240)
        let dssims = try [0.95, 0.7, 0.3].map { quality in
            let data = try CodersManager.shared.encode(Image(pixels: image), as: .jpeg,
                                                       options: ImageEncodeOptions(quality: quality))
            return try DSSIM.dissimilarity(image, CodersManager.shared.decode(data, options: ImageDecodeOptions()).pixels)
        }
        #expect(0 < dssims[0] && dssims[0] < dssims[1] && dssims[1] < dssims[2], "\(dssims)")
    }

    @Test func pollsTheWorkersCancellationEvery16Rows() throws {
        let image = Self.reference(8, 100), other = Self.noisy(image), watching = WorkCancellation()
        _ = try watching.run { try DSSIM.dissimilarity(image, other) }
        #expect(watching.checkCount == 7)
        let stopped = WorkCancellation(checkLimit: 2)
        #expect {
            try stopped.run { try DSSIM.dissimilarity(image, other) }
        } throws: { error in
            if case .cancelled = error as? WebImageError { true } else { false }
        }
        #expect(stopped.checkCount == 2)
    }
}

/// The two searches with fake encoders: `encode(q)` is `q` bytes (or `size(q)`), `measure` a known function of
/// the bytes' count, falling as quality rises.
@Suite struct AutoQualitySearchTests {
    static func bytes(_ count: Int) -> Data { Data(repeating: 0, count: count) }

    /// ⌊log₂ n⌋ + 1: the bits of `n`.
    static func bits(_ n: Int) -> Int { Int.bitWidth - n.leadingZeroBitCount }

    @Test func bySizeTakesTheHighestQualityThatFits() throws {
        var tried: [Int] = []
        let found = try AutoQualitySearch.bySize(target: 57, range: 10...80) { quality in
            tried.append(quality)
            return Self.bytes(quality)
        }
        #expect(found.quality == 57 && found.data.count == 57 && found.encodes == tried.count)
        #expect(tried.first == 80)
    }

    @Test func bySizeAtTheTopIsOneEncode() throws {
        let found = try AutoQualitySearch.bySize(target: 100, range: 10...80) { Self.bytes($0) }
        #expect(found.quality == 80 && found.encodes == 1)
    }

    @Test func bySizeWhenNothingFitsGivesTheLowestQuality() throws {
        let found = try AutoQualitySearch.bySize(target: 5, range: 10...80) { Self.bytes($0) }
        #expect(found.quality == 10 && found.data.count == 10)
    }

    @Test func bySizeStaysWithinItsBound() throws {
        for high in 1...100 {
            for target in 0...101 {
                let found = try AutoQualitySearch.bySize(target: target, range: 1...high) { Self.bytes($0) }
                #expect(found.quality == min(max(target, 1), high))
                #expect(found.encodes <= Self.bits(high - 1) + 1)
            }
        }
    }

    /// DSSIM `1 / quality` of a `quality`-byte encode.
    static func inverse(_ data: Data) -> Double { 1 / Double(data.count) }

    @Test func byDSSIMStopsAtAnExactHit() throws {
        // 10…100: the first quality tried is 55; 1/50 = 0.02 is then found below it.
        let found = try AutoQualitySearch.byDSSIM(target: 0.02, allowedError: 0, range: 10...100,
                                                  encode: Self.bytes, measure: Self.inverse)
        #expect(found.quality == 50 && found.dssim == 0.02 && found.data.count == 50)
        #expect(found.encodes <= Self.bits(91))
    }

    @Test func byDSSIMStopsEarlyWithinTheAllowedError() throws {
        var tried: [Int] = []
        let found = try AutoQualitySearch.byDSSIM(target: 0.02, allowedError: 0.002, range: 10...100,
                                                  encode: { tried.append($0); return Self.bytes($0) },
                                                  measure: Self.inverse)
        // 55 (0.0182) is within 0.002 of 0.02: the first encode is the answer.
        #expect(found.quality == 55 && found.encodes == 1 && tried == [55])
    }

    @Test func byDSSIMTakesTheLowestPassingQualityWhenNoneIsWithinTheError() throws {
        // 1/q against 0.0201 ± 0.0001: q = 50 is 0.02 (within), q = 49 is 0.0204 (above): 50 is found.
        let found = try AutoQualitySearch.byDSSIM(target: 0.0201, allowedError: 0.0001, range: 10...100,
                                                  encode: Self.bytes, measure: Self.inverse)
        #expect(found.quality == 50)
        // 0.0176 ± 0.00001: no 1/q within (56 is 0.01786, 57 is 0.01754); 57 is the lowest below.
        let none = try AutoQualitySearch.byDSSIM(target: 0.0176, allowedError: 0.00001, range: 10...100,
                                                 encode: Self.bytes, measure: Self.inverse)
        #expect(none.quality == 57 && none.dssim == 1.0 / 57)
    }

    @Test func byDSSIMWhenNoneFitsGivesTheTop() throws {
        let found = try AutoQualitySearch.byDSSIM(target: 0.001, allowedError: 0.0001, range: 10...100,
                                                  encode: Self.bytes, measure: Self.inverse)
        #expect(found.quality == 100 && found.data.count == 100 && found.dssim == 0.01)
        #expect(found.encodes == Self.bits(91))
    }

    @Test func byDSSIMWhenAllFitGivesTheBottom() throws {
        let found = try AutoQualitySearch.byDSSIM(target: 0.5, allowedError: 0.01, range: 10...100,
                                                  encode: Self.bytes, measure: Self.inverse)
        #expect(found.quality == 10 && found.dssim == 0.1)
    }

    @Test func byDSSIMOverOneQualityEncodesOnce() throws {
        for target in [0.0001, 1.0 / 42, 0.9] {
            let found = try AutoQualitySearch.byDSSIM(target: target, allowedError: 0, range: 42...42,
                                                      encode: Self.bytes, measure: Self.inverse)
            #expect(found.quality == 42 && found.encodes == 1)
        }
    }

    @Test func byDSSIMStaysWithinItsBoundAndFindsTheLowestPassing() throws {
        for high in 1...100 {
            for target in stride(from: 0.0, through: 1.2, by: 0.013) {
                let found = try AutoQualitySearch.byDSSIM(target: target, allowedError: 0, range: 1...high,
                                                          encode: Self.bytes, measure: Self.inverse)
                let lowestPassing = (1...high).first { 1 / Double($0) <= target } ?? high
                #expect(found.quality == lowestPassing)
                #expect(found.encodes <= Self.bits(high))
            }
        }
    }

    @Test func aNaNMeasureCountsAsAbove() throws {
        let found = try AutoQualitySearch.byDSSIM(target: 0.02, allowedError: 0.002, range: 10...100,
                                                  encode: Self.bytes, measure: { _ in .nan })
        #expect(found.quality == 100 && found.dssim.isNaN)
    }
}
