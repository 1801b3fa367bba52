@_exported import WebImageCore
@_exported import WebImageCodecs

extension CodersManager {
    /// The process-wide manager with every built-in coder registered (JPEG, PNG/APNG, GIF, WebP, HEIF, AVIF,
    /// JPEG XL: `BuiltInCoders.makeAll()`).
    public static let shared = CodersManager(coders: BuiltInCoders.makeAll())
}
