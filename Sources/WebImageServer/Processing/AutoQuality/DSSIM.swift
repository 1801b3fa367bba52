import WebImage

/// How unlike a reference raster a candidate looks: structural dissimilarity as imgproxy's autoquality guide
/// defines it (its link: DSSIM = (1 − SSIM) / 2, 0 for the same pixels, at most 1), what imgproxy Pro's
/// `autoquality:dssim` targets (by default 0.02, give or take 0.002) are compared with. On that scale 0.02 falls
/// between JPEG qualities 70 and 80 on photos, imgproxy's default range; kornelski's 1/SSIM − 1 would put it
/// near 85–90.
///
/// Exactly what is computed:
/// 1. **Lightness.** Each pixel as straight-alpha RGBA8 (16-bit rasters rounded to 8 bits first); red, green
///    and blue to linear light by the sRGB curve (IEC 61966-2-1, ``SRGBCurve/linear``); relative luminance
///    Y = 0.2126 R + 0.7152 G + 0.0722 B; composited onto white in linear light, Y′ = αY + (1 − α) with
///    α = A / 255 (alpha is compared through what it shows over white, as `dssim` compares it over a
///    background; white is imgproxy's default background); then CIE L* / 100: (116 ∛Y′ − 16) / 100 above
///    Y′ = (6/29)³, (24389/27) Y′ / 100 at or below it, so 0…1. One channel: no chroma.
/// 2. **SSIM** of Wang et al. (2004) on it, one scale: local means μ, variances σ² and covariance σxy
///    (population moments, E[x²] − μ²) under an 11 × 11 Gaussian window of σ = 1.5 (``GaussianWindow/ssim``:
///    e^(−k²/4.5), k = −5…5, normalised to sum 1, applied separably), every pixel a window's centre, the image
///    mirrored half-sample symmetrically past its edges (… c b a | a b c …, repeated for sides under 6 pixels);
///    SSIM = (2μxμy + C1)(2σxy + C2) / ((μx² + μy² + C1)(σx² + σy² + C2)), C1 = 0.01², C2 = 0.03² (L = 1).
/// 3. **DSSIM** = (1 − S) / 2, S the mean of the SSIM map over all pixels (never below 0: a mean rounded
///    above 1 is 0).
///
/// O(pixels): two rows' lightness and five row blurs and five column blurs of 11 taps per row, in `Double`; no
/// allocation per pixel or row, memory a few dozen rows of the width (``StructuralSimilarity``). Polls the
/// worker's ``WorkCancellation`` every ``RasterOps/rowsPerCheck`` rows.
package enum DSSIM {
    /// The dissimilarity of `candidate` to `reference`.
    ///
    /// - Precondition: both have the same width and height (a caller comparing a decoded encode checks the
    ///   decoded size first and fails its own way: a different size is a wrong encode, not a distance).
    /// - Throws: ``WebImageError/cancelled`` when the worker's ``WorkCancellation`` stopped it.
    package static func dissimilarity(_ reference: PixelBuffer, _ candidate: PixelBuffer) throws(WebImageError) -> Double {
        precondition(reference.size == candidate.size,
                     "DSSIM compares rasters of one size, not \(reference.size) and \(candidate.size)")
        let first = reference.converted(to: .rgba8), second = candidate.converted(to: .rgba8)
        let cancellation = WorkCancellation.current
        let mean = first.withUnsafeBytes { x in
            second.withUnsafeBytes { y in
                StructuralSimilarity.mean(x, y, width: first.width, height: first.height, cancellation: cancellation)
            }
        }
        guard let mean else { throw .cancelled }
        return fromSSIM(mean)
    }

    /// (1 − `ssim`) / 2, at least 0.
    static func fromSSIM(_ ssim: Double) -> Double {
        max(0, (1 - ssim) / 2)
    }
}
