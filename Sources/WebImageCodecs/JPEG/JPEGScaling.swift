import CTurboJPEG
import WebImageCore

/// The DCT-domain scaling factor a decode uses: the IDCT can output 1/2, 1/4 or 1/8 size nearly for free,
/// so a thumbnail is decoded at the smallest of those whose reduction still fits in the source's own size (as
/// libvips' shrink-on-load and imgproxy choose it), and the exact size is reached afterwards by
/// `ImageDecodeOptions.finish`.
struct JPEGScaling: Equatable {
    var numerator: Int
    var denominator: Int

    static let none = JPEGScaling(numerator: 1, denominator: 1)

    /// The factor for decoding a `source`-sized JPEG when `target` (nil: full size) is wanted.
    ///
    /// The reduced size is chosen among 1/8, 1/4, 1/2 and 1, then mapped to the factor `tjDecompress2`
    /// itself picks for that output size (its table also holds factors like 5/8, which give the same size
    /// for tiny images), so the TurboJPEG and libjpeg paths always scale identically.
    init(source: PixelSize, target: PixelSize?) {
        self = .none
        guard let target else { return }
        // The source must hold d whole pixels for every target pixel: libjpeg rounds a reduced size up, so a
        // 683-row source reduced by 4 gives 171 rows, but a 171-row target then takes its last row from a 3-row
        // remainder, and the result is a box filter's, softer than a 2× reduction resampled (libvips' choice).
        guard let denominator = [8, 4, 2].first(where: { d in
            source.width >= target.width * d && source.height >= target.height * d
        }) else { return }
        let width = Self.scaled(source.width, 1, denominator), height = Self.scaled(source.height, 1, denominator)
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return }
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) {
            let num = Int(factor.num), denom = Int(factor.denom)
            if Self.scaled(source.width, num, denom) <= width && Self.scaled(source.height, num, denom) <= height {
                self = JPEGScaling(numerator: num, denominator: denom)
                return
            }
        }
    }

    private init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The decoded size of `source` at this factor (libjpeg rounds up).
    func scaledSize(_ source: PixelSize) -> PixelSize {
        PixelSize(width: Self.scaled(source.width, numerator, denominator),
                  height: Self.scaled(source.height, numerator, denominator))
    }

    /// TurboJPEG's `TJSCALED` (a function-like macro, so not imported).
    private static func scaled(_ dimension: Int, _ numerator: Int, _ denominator: Int) -> Int {
        (dimension * numerator + denominator - 1) / denominator
    }
}
