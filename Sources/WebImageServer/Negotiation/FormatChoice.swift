import WebImage

/// The output format of one request, decided before the source is known, and whether `Accept` decided it
/// (then the answer varies by `Accept`).
///
/// It is the format part of the result key: `avif`, `webp`, an explicit format, or `source` with the preferred
/// formats (the source's own format when it is one of them, else the first of them that holds the result: see
/// ``fallback(for:)``), so every request of one bucket shares one result.
struct FormatChoice: Sendable, Hashable {
    /// The format named or negotiated; nil follows the source and the preferred formats.
    var format: ImageFormat?
    var dependsOnAccept: Bool
    /// imgproxy's `IMGPROXY_PREFERRED_FORMATS`: a source in one of them is answered in it, any other in the first
    /// that holds the result. Never empty.
    var preferred: [ImageFormat]
    /// Negotiated AVIF, and the client lists WebP too: an animated source gets WebP instead (imgproxy never
    /// negotiates AVIF for an animation, which would lose it).
    var webPForAnimations = false

    /// The URL's format (`format:` or the extension) if any; else, negotiating, AVIF when the client lists it
    /// (and `negotiatesAVIF`), then WebP when it lists that; else the source's, or a preferred one.
    init(explicit: ImageFormat?, accept: String?, negotiates: Bool, negotiatesAVIF: Bool = true,
         preferred: [ImageFormat] = [.jpeg, .png, .gif]) {
        let header = AcceptHeader(accept)
        func listed(_ type: String) -> Bool { (header.explicitQuality(of: type) ?? 0) > 0 }
        if let explicit {
            self.init(format: explicit, dependsOnAccept: false, preferred: preferred)
        } else if !negotiates {
            self.init(format: nil, dependsOnAccept: false, preferred: preferred)
        } else if negotiatesAVIF, listed("image/avif") {
            self.init(format: .avif, dependsOnAccept: true, preferred: preferred)
            webPForAnimations = listed("image/webp")
        } else if listed("image/webp") {
            self.init(format: .webp, dependsOnAccept: true, preferred: preferred)
        } else {
            self.init(format: nil, dependsOnAccept: true, preferred: preferred)
        }
    }

    init(format: ImageFormat?, dependsOnAccept: Bool, preferred: [ImageFormat] = [.jpeg, .png, .gif]) {
        self.format = format
        self.dependsOnAccept = dependsOnAccept
        self.preferred = preferred.isEmpty ? [.jpeg] : preferred
    }

    /// The bucket's name in the result key.
    var keyComponent: String {
        if let format { return format.rawValue + (webPForAnimations ? "+webp" : "") }
        return "source(" + preferred.map(\.rawValue).joined(separator: ",") + ")"
    }

    /// Whether the result keeps every frame: in a format that holds an animation, or when the result decides
    /// the format.
    func keepsFrames(source: ImageFormat, animated: Bool) -> Bool {
        resolved(source: source, animated: animated).map(Self.holdsAnimation) ?? true
    }

    /// The format written for a source of `source` format; nil when the source's format is not a preferred
    /// one (or an animation was negotiated AVIF): then ``fallback(for:)`` picks it from the result.
    func resolved(source: ImageFormat, animated: Bool) -> ImageFormat? {
        if animated, dependsOnAccept, format == .avif {
            return webPForAnimations ? .webp : (preferred.contains(source) ? source : nil)
        }
        return format ?? (preferred.contains(source) ? source : nil)
    }

    /// imgproxy's `findBestFormat`: the first preferred format that can hold the result (an animation, a
    /// transparent pixel), else the first preferred format.
    func fallback(for result: Image) -> ImageFormat {
        preferred.first { format in
            (result.frameCount == 1 || Self.holdsAnimation(format)) && (!result.hasAlpha || Self.holdsAlpha(format))
        } ?? preferred[0]
    }

    /// The formats imgproxy saves animations in.
    static func holdsAnimation(_ format: ImageFormat) -> Bool { format == .gif || format == .webp }

    static func holdsAlpha(_ format: ImageFormat) -> Bool { format != .jpeg && format != .bmp }
}
