@_exported import WebImageCore
@_exported import WebImageCodecs

extension CodersManager {
    /// The process-wide manager with every built-in coder (JPEG, PNG/APNG, GIF, WebP) registered.
    public static let shared = CodersManager(coders: BuiltInCoders.makeAll())
}
