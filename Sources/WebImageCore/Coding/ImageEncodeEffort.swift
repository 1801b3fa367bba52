/// How much CPU an encoder spends to make its output smaller (``ImageEncodeOptions/effort``).
///
/// Effort never changes what the image looks like beyond what quality and losslessness already allow: lossless
/// output stays pixel-exact and lossy output keeps the requested quality; only the file size differs.
///
/// ```swift
/// let cached = try CodersManager.shared.encode(thumbnail, as: .png, options: .init(effort: .fastest))
/// ```
public enum ImageEncodeEffort: Sendable, Hashable, CaseIterable {
    /// The cheapest encoder settings, for bytes that only go into a cache: PNG rows take the Sub filter and
    /// are deflated by libdeflate at level 1; WebP uses method 0 (lossless: libwebp's lossless preset 0);
    /// GIF builds its palette from a sample of the pixels; JPEG is unchanged (TurboJPEG is already fast).
    /// Files are larger than with ``balanced``.
    case fastest
    /// Each library's quality-first defaults: libpng's simplified writer (zlib level 6, adaptive filters),
    /// WebP method 4 (lossless: quality as the effort), GIF's median cut over every pixel, TurboJPEG.
    case balanced
}
