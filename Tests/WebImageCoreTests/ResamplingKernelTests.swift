import Testing
import WebImageCore

/// libvips' kernels in ``Resampler``: the area filter unchanged, nearest's choice of pixels, constants kept,
/// overshoot clamped, no fringes at alpha edges, and agreement with pyvips.
@Suite struct ResamplingKernelTests {
    static let kernels: [Resampler.Kernel] = [.nearest, .linear, .cubic, .lanczos2, .lanczos3]

    /// The default stays the area filter, byte for byte: the hashes are of the outputs before kernels existed,
    /// and the two-pass reference the streaming resampler replaced agrees.
    @Test(arguments: [PixelFormat.rgba8, .rgba16])
    func areaIsUnchanged(format: PixelFormat) {
        let pinned: [PixelFormat: [UInt64]] = [
            .rgba8: [11_499_401_460_732_734_523, 7_008_732_559_114_034_093, 17_162_539_802_098_202_379],
            .rgba16: [17_351_812_553_211_931_293, 13_733_928_596_806_351_542, 11_576_599_684_352_359_376],
        ]
        let pairs = [(PixelSize(width: 97, height: 61), PixelSize(width: 23, height: 17)),
                     (PixelSize(width: 97, height: 61), PixelSize(width: 40, height: 150)),
                     (PixelSize(width: 13, height: 9), PixelSize(width: 41, height: 29))]
        for ((from, to), hash) in zip(pairs, pinned[format] ?? []) {
            var seed: UInt64 = 42
            let source = RowResamplerTests.noise(from, format: format, seed: &seed)
            let area = Resampler.resample(source, to: to, kernel: .area)
            #expect(Self.fnv(area) == hash, "\(from) → \(to)")
            #expect(area == Resampler.resample(source, to: to))
            #expect(area == ReferenceResampler.resample(source, to: to))
        }
    }

    /// The kernels give the bytes the Swift loops gave before the inner loops moved to C (hashes of those outputs):
    /// shrinking, enlarging, odd widths (the horizontal pass sums pairs) and every alpha value.
    @Test(arguments: [(Resampler.Kernel.lanczos3, [7_991_331_824_075_907_924, 8_486_164_838_154_656_818,
                                                   17_425_037_678_254_584_157, 6_242_974_641_286_322_980]),
                      (.cubic, [5_006_049_374_035_004_646, 8_677_988_055_042_635_778, 12_757_322_940_667_439_296,
                                6_242_974_641_286_322_980]),
                      (.linear, [12_279_218_103_141_694_131, 3_001_198_858_498_448_918, 7_004_296_486_336_389_954,
                                 8_987_815_987_075_319_903])] as [(Resampler.Kernel, [UInt64])])
    func kernelsAreUnchanged(kernel: Resampler.Kernel, pinned: [UInt64]) {
        let pairs = [(PixelSize(width: 97, height: 61), PixelSize(width: 23, height: 17)),
                     (PixelSize(width: 97, height: 61), PixelSize(width: 40, height: 150)),
                     (PixelSize(width: 101, height: 67), PixelSize(width: 50, height: 33)),
                     (PixelSize(width: 13, height: 9), PixelSize(width: 41, height: 29))]
        for ((from, to), hash) in zip(pairs, pinned) {
            var seed: UInt64 = 42
            let source = RowResamplerTests.noise(from, format: .rgba8, seed: &seed)
            #expect(Self.fnv(Resampler.resample(source, to: to, kernel: kernel)) == hash, "\(kernel) \(from) → \(to)")
        }
    }

    /// Shrinking reads `floor((d + 0.5) · scale)`, enlarging `floor(d · scale)`, as libvips' reduce and affine do.
    @Test func nearestPicksSourcePixels() {
        func columns(_ width: Int, to target: Int) -> [UInt8] {
            let row = PixelBuffer(width: width, height: 1, bytes: (0..<width).flatMap { [UInt8($0), 0, 0, 255] })
            let out = Resampler.resample(row, to: PixelSize(width: target, height: 1), kernel: .nearest)
            return stride(from: 0, to: out.bytes.count, by: 4).map { out.bytes[$0] }
        }
        #expect(columns(4, to: 2) == [1, 3])
        #expect(columns(3, to: 2) == [0, 2])
        #expect(columns(9, to: 3) == [1, 4, 7])
        #expect(columns(2, to: 4) == [0, 0, 1, 1])
        #expect(columns(2, to: 3) == [0, 0, 1])
    }

    /// Weights sum to 1 however the edges clamp, so a flat (even half-transparent) image stays exactly flat.
    @Test(arguments: [PixelFormat.rgba8, .rgba16])
    func constantStaysConstant(format: PixelFormat) {
        let sizes = [(PixelSize(width: 37, height: 23), PixelSize(width: 5, height: 3)),
                     (PixelSize(width: 30, height: 20), PixelSize(width: 15, height: 10)),
                     (PixelSize(width: 7, height: 9), PixelSize(width: 20, height: 31)),
                     (PixelSize(width: 40, height: 10), PixelSize(width: 13, height: 30)),
                     (PixelSize(width: 1, height: 5), PixelSize(width: 3, height: 2))]
        let pixel: [UInt8] = [200, 100, 50, 128]
        for kernel in Self.kernels {
            for (from, to) in sizes {
                let flat = PixelBuffer(width: from.width, height: from.height,
                                       bytes: Array([[UInt8]](repeating: pixel, count: from.pixelCount).joined()))
                let out = Resampler.resample(flat.converted(to: format), to: to, kernel: kernel)
                let expected = PixelBuffer(width: to.width, height: to.height,
                                           bytes: Array([[UInt8]](repeating: pixel, count: to.pixelCount).joined()))
                #expect(out == expected.converted(to: format), "\(kernel) \(from) → \(to)")
            }
        }
    }

    /// A one-pixel white line shrunk 12 → 6: lanczos3's sums beside it are −17 and −8.7 (pyvips in float), which
    /// clamp to 0; a black-to-white step enlarged with Catmull-Rom would reach −16 and 271, which clamp to 0 and 255.
    @Test(arguments: [PixelFormat.rgba8, .rgba16])
    func overshootIsClamped(format: PixelFormat) {
        func row(_ values: [UInt8], to width: Int, _ kernel: Resampler.Kernel) -> [UInt8] {
            let source = PixelBuffer(width: values.count, height: 1, bytes: values.flatMap { [$0, $0, $0, 255] })
            let out = Resampler.resample(source.converted(to: format), to: PixelSize(width: width, height: 1),
                                         kernel: kernel)
            return (0..<width).map { out.rgba8(x: $0, y: 0)[0] }
        }
        let line: [UInt8] = [0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0]
        #expect(row(line, to: 6, .lanczos3) == [4, 0, 114, 35, 0, 1])
        #expect(row(line, to: 6, .cubic) == [0, 0, 111, 29, 0, 0])
        let step: [UInt8] = [0, 0, 0, 0, 255, 255, 255, 255]
        #expect(row(step, to: 16, .lanczos3) == [0, 0, 0, 0, 0, 0, 0, 0, 128, 255, 255, 255, 255, 255, 255, 255])
    }

    /// Transparent red beside opaque white: in premultiplied alpha the red weighs nothing, so every pixel with any
    /// alpha is pure white, even where the lobes push alpha past 255 or below 0 (clamped, colour with it).
    @Test func alphaEdgeLeavesNoFringe() {
        let redThenWhite = PixelBuffer(width: 12, height: 6, bytes: (0..<72).flatMap { i -> [UInt8] in
            i % 12 < 6 ? [255, 0, 0, 0] : [255, 255, 255, 255]
        })
        for kernel in Self.kernels {
            for size in [PixelSize(width: 5, height: 3), PixelSize(width: 4, height: 2),
                         PixelSize(width: 30, height: 6)] {
                let out = Resampler.resample(redThenWhite, to: size, kernel: kernel)
                for y in 0..<size.height {
                    for x in 0..<size.width where out.rgba8(x: x, y: y)[3] > 0 {
                        #expect(out.rgba8(x: x, y: y)[0..<3] == [255, 255, 255], "\(kernel) \(size) at \(x), \(y)")
                    }
                }
            }
        }
    }

    /// Against pyvips 3.2.0 on libvips 8.18.7, on one-band uchar images of ``grey(_:)``: `img.reduce(2, 2,
    /// kernel=k)` and `img.reduce(3, 3, kernel=k)` on 36×24 (the kernel alone; `vips_resize` would box-shrink
    /// by 2 first from a 4× shrink on), `img.resize(2, kernel=k)` on 10×6. libvips works in 12-bit fixed point
    /// with positions in 1/64 and rounds between its two passes; we work in floats, so values may differ by 2
    /// (1 is the most seen). Nearest picks the same pixels exactly.
    @Test(arguments: kernels)
    func matchesPyvips(kernel: Resampler.Kernel) throws {
        let tolerance = kernel == .nearest ? 0 : 2
        for pin in try #require(Self.pyvipsRows[kernel]) {
            let (from, to) = pin.case.sizes
            let out = Resampler.resample(Self.grey(from), to: to, kernel: kernel)
            for (x, expected) in pin.values.enumerated() {
                for channel in out.rgba8(x: x, y: pin.row)[0..<3] {
                    #expect(abs(Int(channel) - expected) <= tolerance, "\(kernel) \(pin.case) at \(x), \(pin.row)")
                }
            }
        }
    }

    enum Case {
        case shrink2, shrink3, enlarge2

        var sizes: (PixelSize, PixelSize) {
            switch self {
            case .shrink2: (PixelSize(width: 36, height: 24), PixelSize(width: 18, height: 12))
            case .shrink3: (PixelSize(width: 36, height: 24), PixelSize(width: 12, height: 8))
            case .enlarge2: (PixelSize(width: 10, height: 6), PixelSize(width: 20, height: 12))
            }
        }
    }

    /// One output row pyvips made.
    struct Pin {
        let `case`: Case
        let row: Int
        let values: [Int]

        init(_ case: Case, row: Int, _ values: [Int]) {
            self.case = `case`
            self.row = row
            self.values = values
        }
    }

    /// An opaque grey gradient with noise, row by row: `min(255, 3x + 2y + (s >> 33 & 127))`, `s` stepped by
    /// the PCG multiplier and increment from 1 before each pixel (the pins were made from the same values).
    static func grey(_ size: PixelSize) -> PixelBuffer {
        var seed: UInt64 = 1
        var bytes: [UInt8] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let value = UInt8(min(255, x * 3 + y * 2 + Int(seed >> 33 & 127)))
                bytes += [value, value, value, 255]
            }
        }
        return PixelBuffer(width: size.width, height: size.height, bytes: bytes)
    }

    static func fnv(_ buffer: PixelBuffer) -> UInt64 {
        buffer.withUnsafeBytes { raw in
            raw.reduce(14_695_981_039_346_656_037 as UInt64) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        }
    }
}

extension ResamplingKernelTests {
    static let pyvipsRows: [Resampler.Kernel: [Pin]] = [
        .nearest: [
            Pin(.shrink2, row: 0, [111, 40, 117, 79, 51, 40, 75, 151, 119, 99, 116, 77, 99, 136, 120, 215, 140,
                136]),
            Pin(.shrink2, row: 6, [86, 96, 121, 139, 133, 145, 185, 111, 86, 204, 150, 165, 198, 216, 117, 160, 134,
                248]),
            Pin(.shrink3, row: 0, [111, 141, 79, 148, 75, 174, 99, 187, 99, 189, 215, 138]),
            Pin(.shrink3, row: 4, [86, 38, 139, 142, 185, 196, 204, 219, 198, 210, 160, 188]),
            Pin(.enlarge2, row: 0, [86, 86, 92, 92, 82, 82, 111, 111, 102, 102, 130, 130, 44, 44, 139, 139, 65, 65,
                85, 85]),
            Pin(.enlarge2, row: 7, [37, 37, 27, 27, 40, 40, 84, 84, 32, 32, 111, 111, 98, 98, 133, 133, 122, 122,
                62, 62]),
        ],
        .linear: [
            Pin(.shrink2, row: 0, [88, 84, 104, 79, 86, 115, 100, 100, 111, 114, 133, 144, 133, 135, 143, 140, 142,
                155]),
            Pin(.shrink2, row: 6, [83, 90, 80, 122, 135, 144, 139, 136, 142, 160, 152, 167, 170, 178, 164, 151, 171,
                210]),
            Pin(.shrink3, row: 0, [85, 87, 79, 105, 104, 110, 118, 144, 138, 141, 149, 156]),
            Pin(.shrink3, row: 4, [91, 89, 125, 138, 133, 140, 154, 158, 175, 170, 170, 206]),
            Pin(.enlarge2, row: 0, [86, 86, 89, 92, 87, 82, 97, 111, 107, 102, 116, 130, 87, 44, 92, 139, 102, 65,
                75, 85]),
            Pin(.enlarge2, row: 7, [37, 37, 32, 27, 34, 40, 62, 84, 58, 32, 72, 111, 105, 98, 116, 133, 128, 122,
                92, 62]),
        ],
        .cubic: [
            Pin(.shrink2, row: 0, [88, 83, 112, 74, 81, 118, 95, 100, 116, 112, 133, 145, 129, 136, 145, 138, 139,
                151]),
            Pin(.shrink2, row: 6, [82, 91, 73, 125, 139, 147, 142, 137, 141, 164, 151, 170, 168, 184, 165, 141, 163,
                212]),
            Pin(.shrink3, row: 0, [85, 86, 76, 104, 105, 110, 118, 146, 138, 140, 146, 156]),
            Pin(.shrink3, row: 4, [92, 88, 125, 140, 132, 138, 152, 156, 177, 168, 166, 207]),
            Pin(.enlarge2, row: 0, [84, 84, 88, 90, 83, 79, 97, 115, 110, 104, 125, 136, 86, 44, 94, 144, 108, 62,
                68, 85]),
            Pin(.enlarge2, row: 7, [38, 37, 31, 27, 30, 40, 66, 84, 56, 32, 69, 111, 107, 98, 115, 133, 133, 122,
                91, 62]),
        ],
        .lanczos2: [
            Pin(.shrink2, row: 0, [88, 83, 112, 74, 82, 118, 95, 100, 116, 112, 133, 145, 128, 136, 145, 137, 139,
                151]),
            Pin(.shrink2, row: 6, [82, 91, 73, 125, 139, 147, 142, 138, 141, 164, 150, 171, 168, 184, 164, 140, 163,
                212]),
            Pin(.shrink3, row: 0, [85, 86, 76, 104, 105, 109, 118, 146, 139, 140, 146, 157]),
            Pin(.shrink3, row: 4, [92, 88, 126, 140, 132, 138, 152, 156, 177, 169, 166, 207]),
            Pin(.enlarge2, row: 0, [84, 84, 88, 90, 83, 79, 97, 115, 110, 104, 125, 136, 86, 44, 94, 144, 108, 62,
                68, 85]),
            Pin(.enlarge2, row: 7, [38, 37, 31, 27, 30, 40, 66, 84, 56, 32, 69, 111, 107, 98, 115, 133, 133, 122,
                91, 62]),
        ],
        .lanczos3: [
            Pin(.shrink2, row: 0, [86, 84, 114, 72, 79, 118, 92, 103, 119, 111, 134, 146, 127, 137, 146, 134, 138,
                151]),
            Pin(.shrink2, row: 6, [84, 91, 73, 127, 141, 148, 139, 142, 141, 163, 149, 172, 169, 189, 166, 137, 162,
                215]),
            Pin(.shrink3, row: 0, [86, 84, 76, 104, 106, 108, 116, 148, 138, 140, 146, 157]),
            Pin(.shrink3, row: 4, [93, 88, 125, 141, 132, 138, 150, 156, 179, 166, 163, 209]),
            Pin(.enlarge2, row: 0, [84, 84, 88, 90, 83, 79, 97, 115, 110, 104, 125, 136, 86, 44, 94, 144, 108, 62,
                68, 85]),
            Pin(.enlarge2, row: 7, [38, 37, 31, 27, 30, 40, 66, 84, 56, 32, 69, 111, 107, 98, 115, 133, 133, 122,
                91, 62]),
        ],
    ]
}
