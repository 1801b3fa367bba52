import WebImage

/// The key a result is cached and made under: `source|format bucket|quality defaults|options` — never the
/// signature, so rotating keys keeps the cache. The options part is each option's ``ResultKeyPart`` in
/// ``ProcessingOptionTable/all``'s order, `name:values` joined by `/`, the options at their defaults adding
/// nothing; no part holds `|`, so a source holding one is still read one way (from the right).
enum ResultKey {
    /// `quality` is the service's default quality and per-format table, which decide a result's quality when
    /// the URL gives none.
    static func make(source: String, options: ProcessingOptions, format: FormatChoice, quality: QualityDefaults) -> String {
        let parts = ProcessingOptionTable.all.compactMap { spec in
            spec.key?.text(options).map { spec.keyName + ":" + $0 }
        }
        let defaults = options.quality > 0 ? "" : quality.keyComponent
        return [source, format.keyComponent, defaults, parts.joined(separator: "/")].joined(separator: "|")
    }

    /// The fields of ``ProcessingOptions`` the key leaves out, and why (a test checks every other one is in it).
    static let leftOut: [String: String] = [
        "format": "the format bucket stands for it, resolved with the extension and Accept",
        "expires": "checked before any work; a live URL is the same image",
        "filename": "only the Content-Disposition header, written per answer",
        "returnAttachment": "only the Content-Disposition header, written per answer",
    ]
}

/// The quality a result gets when its URL gives none: per output format (imgproxy's `IMGPROXY_FORMAT_QUALITY`),
/// else the default (`IMGPROXY_QUALITY`).
struct QualityDefaults: Sendable, Hashable {
    var quality: Int
    var byFormat: [ImageFormat: Int]

    /// The quality of a result in `format`: the URL's, its per-format table's, the configured one's, else the default.
    func quality(for format: ImageFormat, options: ProcessingOptions) -> Int {
        if options.quality > 0 { return options.quality }
        return options.formatQuality[format] ?? byFormat[format] ?? quality
    }

    var keyComponent: String {
        "d\(quality)" + byFormat.map { ",\($0.key.rawValue)=\($0.value)" }.sorted().joined()
    }
}
