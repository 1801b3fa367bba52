/// How much CPU an encoder spends to make its output smaller (``ImageEncodeOptions/effort``).
///
/// Effort trades file size for CPU time: at every effort lossless output stays pixel-exact, lossy output is
/// made at the requested quality setting, and size, alpha and frames are kept.
///
/// ```swift
/// let cached = try CodersManager.shared.encode(thumbnail, as: .png, options: .init(effort: .fastest))
/// ```
public enum ImageEncodeEffort: Sendable, Hashable, CaseIterable {
    /// The cheapest encoder settings, for bytes that only go into a cache: PNG rows take the Sub filter and
    /// are deflated by libdeflate at level 1; WebP uses method 0 (lossless: libwebp's lossless preset 0); GIF's
    /// median cut works on a 4-bit rather than 5-bit colour histogram; JPEG XL uses libjxl's effort 1; JPEG is
    /// unchanged (TurboJPEG is already fast); AVIF uses speed 10, HEIC x265's `ultrafast` preset. Files are
    /// larger than with ``balanced`` (GIF's about the same).
    case fastest
    /// Each library's quality-first defaults: libpng's simplified writer (zlib level 6, adaptive filters),
    /// WebP method 4 (lossless: quality as the effort), GIF's median cut on a 5-bit histogram, libjxl's effort 7,
    /// TurboJPEG, AVIF speed 6 (`avifenc`'s default), HEIC x265's `slow` preset (libheif's default).
    case balanced
}
