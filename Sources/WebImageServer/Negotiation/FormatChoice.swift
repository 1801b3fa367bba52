import WebImage

/// The output format of one request, decided before the source is known, and whether `Accept` decided it
/// (then the answer varies by `Accept`).
///
/// It is the format part of the result key: `avif`, `webp`, an explicit format, or `source` (the source's own
/// format when the service writes it, else one chosen from the result: see ``fallback(for:)``), so every
/// request of one bucket shares one result.
struct FormatChoice: Sendable, Hashable {
    /// The format named or negotiated; nil follows the source.
    var format: ImageFormat?
    var dependsOnAccept: Bool

    /// The formats the service writes.
    static let encodable: Set<ImageFormat> = [.jpeg, .png, .gif, .webp, .avif]

    /// The URL's format (`format:` or the extension) if any; else, negotiating, AVIF when the client lists it
    /// (and `negotiatesAVIF`), then WebP when it lists that; else the source's.
    init(explicit: ImageFormat?, accept: String?, negotiates: Bool, negotiatesAVIF: Bool = true) {
        let header = AcceptHeader(accept)
        func listed(_ type: String) -> Bool { (header.explicitQuality(of: type) ?? 0) > 0 }
        if let explicit {
            self.init(format: explicit, dependsOnAccept: false)
        } else if !negotiates {
            self.init(format: nil, dependsOnAccept: false)
        } else if negotiatesAVIF, listed("image/avif") {
            self.init(format: .avif, dependsOnAccept: true)
        } else if listed("image/webp") {
            self.init(format: .webp, dependsOnAccept: true)
        } else {
            self.init(format: nil, dependsOnAccept: true)
        }
    }

    init(format: ImageFormat?, dependsOnAccept: Bool) {
        self.format = format
        self.dependsOnAccept = dependsOnAccept
    }

    /// The bucket's name in the result key.
    var keyComponent: String { format?.rawValue ?? "source" }

    /// The format written for a source of `source` format; nil when the source's own format is asked for and
    /// the service does not write it (HEIC, HEIF, JPEG XL): then ``fallback(for:)`` picks it from the result.
    func resolved(source: ImageFormat) -> ImageFormat? {
        format ?? (Self.encodable.contains(source) ? source : nil)
    }

    /// The format for a result whose source format the service does not write, as imgproxy picks it among its
    /// default preferred formats (JPEG, PNG, GIF): GIF for an animation, PNG when a pixel is transparent,
    /// else JPEG.
    static func fallback(for result: Image) -> ImageFormat {
        if result.frameCount > 1 { return .gif }
        return result.hasAlpha ? .png : .jpeg
    }
}
