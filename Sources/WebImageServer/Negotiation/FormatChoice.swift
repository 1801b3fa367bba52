import WebImage

/// The output format of one request, decided before the source is known, and whether `Accept` decided it
/// (then the answer varies by `Accept`).
///
/// It is the format part of the result key: the format for a still and the one for an animation (each named,
/// negotiated, or `source` with the preferred formats: the source's own format when it is one of them, else
/// the first of them that holds the result, see ``fallback(for:)``), so every request of one bucket shares
/// one result.
struct FormatChoice: Sendable, Hashable {
    /// The URL's format (`format:` or the extension), if any.
    var requested: ImageFormat?
    /// The format of a still result, named or negotiated; nil follows the source and the preferred formats.
    var format: ImageFormat?
    /// The format of an animated result: imgproxy never negotiates AVIF or JPEG XL for one, so it is WebP when
    /// that was negotiated, else the URL's; nil follows the source and the preferred formats.
    var animationFormat: ImageFormat?
    var dependsOnAccept: Bool
    /// imgproxy's `IMGPROXY_PREFERRED_FORMATS`: a source in one of them is answered in it, any other in the first
    /// that holds the result. Never empty.
    var preferred: [ImageFormat]
    /// imgproxy Pro's `best`: the formats the result is tried in (the preferred ones, and WebP, AVIF and JPEG XL
    /// where their negotiation is on and the client lists them), the smallest answered; nil otherwise.
    var bestCandidates: [ImageFormat]?

    /// The `best` bucket for a client sending `accept`.
    static func best(accept: String?, negotiation: ImageProxyConfiguration.Negotiation,
                     preferred: [ImageFormat]) -> FormatChoice {
        let header = AcceptHeader(accept)
        let modern = [(negotiation.webp, ImageFormat.webp), (negotiation.avif, .avif), (negotiation.jxl, .jxl)]
        let accepted = modern.compactMap { mode, format -> ImageFormat? in
            guard mode != .off, let type = format.mimeType, (header.explicitQuality(of: type) ?? 0) > 0 else { return nil }
            return format
        }
        var choice = FormatChoice(format: nil, dependsOnAccept: modern.contains { $0.0 != .off }, preferred: preferred)
        choice.bestCandidates = (choice.preferred + accepted).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        return choice
    }

    /// imgproxy's `determineOutputFormat`: with no format in the URL, JPEG XL, then AVIF (stills only), then
    /// WebP, each when its negotiation is on and the client lists it; with one, the same for the formats whose
    /// negotiation is enforced; else the URL's format, or the source's, or a preferred one.
    init(explicit: ImageFormat?, accept: String?,
         negotiation: ImageProxyConfiguration.Negotiation = ImageProxyConfiguration.Negotiation(),
         preferred: [ImageFormat] = [.jpeg, .png, .gif]) {
        let header = AcceptHeader(accept)
        let needed: ImageProxyConfiguration.Negotiation.Mode = explicit == nil ? .preferred : .enforced
        func chosen(_ mode: ImageProxyConfiguration.Negotiation.Mode, _ format: ImageFormat) -> ImageFormat? {
            guard mode >= needed, let type = format.mimeType, (header.explicitQuality(of: type) ?? 0) > 0 else { return nil }
            return format
        }
        let webp = chosen(negotiation.webp, .webp)
        let still = chosen(negotiation.jxl, .jxl) ?? chosen(negotiation.avif, .avif) ?? webp
        let modes = [negotiation.webp, negotiation.avif, negotiation.jxl]
        let animation: ImageFormat? = webp ?? explicit
        self.init(format: still ?? explicit, animationFormat: .some(animation),
                  dependsOnAccept: modes.contains { $0 >= needed }, preferred: preferred)
        requested = explicit
    }

    init(format: ImageFormat?, animationFormat: ImageFormat?? = nil, dependsOnAccept: Bool,
         preferred: [ImageFormat] = [.jpeg, .png, .gif]) {
        requested = dependsOnAccept ? nil : format
        self.format = format
        self.animationFormat = animationFormat ?? format
        self.dependsOnAccept = dependsOnAccept
        self.preferred = preferred.isEmpty ? [.jpeg] : preferred
    }

    /// The bucket's name in the result key.
    var keyComponent: String {
        if let bestCandidates { return "best(" + bestCandidates.map(\.rawValue).joined(separator: ",") + ")" }
        func name(_ format: ImageFormat?) -> String {
            format?.rawValue ?? "source(" + preferred.map(\.rawValue).joined(separator: ",") + ")"
        }
        return name(format) + (animationFormat == format ? "" : "+animation:" + name(animationFormat))
    }

    /// Whether the result keeps every frame: in a format that holds an animation, in AVIF when the URL names it
    /// (an AVIF sequence, where imgproxy keeps only the first frame), or when the result decides the format.
    func keepsFrames(source: ImageFormat, animated: Bool) -> Bool {
        guard let format = resolved(source: source, animated: animated) else { return true }
        return Self.holdsAnimation(format) || (format == .avif && requested == .avif)
    }

    /// The format written for a source of `source` format; nil when it is not a preferred one: then
    /// ``fallback(for:)`` picks it from the result.
    func resolved(source: ImageFormat, animated: Bool) -> ImageFormat? {
        if bestCandidates != nil { return nil }
        return (animated ? animationFormat : format) ?? (preferred.contains(source) ? source : nil)
    }

    /// Whether a source may be answered as it came (SVG as SVG, `skip_processing`): not under `best`, unless
    /// the operator allows it (`IMGPROXY_BEST_FORMAT_ALLOW_SKIPS`).
    func mayAnswerSource(skipsAllowed: Bool) -> Bool { bestCandidates == nil || skipsAllowed }

    /// Whether a result can be written in `format`: every frame of an animation, any transparency.
    static func holds(_ result: Image, in format: ImageFormat) -> Bool {
        (result.frameCount == 1 || holdsAnimation(format)) && (!result.hasAlpha || holdsAlpha(format))
    }

    /// imgproxy's `findBestFormat`: the first preferred format that can hold the result (an animation, a
    /// transparent pixel), else the first preferred format.
    func fallback(for result: Image) -> ImageFormat {
        preferred.first { Self.holds(result, in: $0) } ?? preferred[0]
    }

    /// The formats imgproxy saves animations in.
    static func holdsAnimation(_ format: ImageFormat) -> Bool { format == .gif || format == .webp }

    /// The formats results keep every frame in: imgproxy's two, and AVIF sequences (only when the URL names
    /// AVIF: negotiation and the preferred formats never choose it for an animation).
    static func writesAnimation(_ format: ImageFormat) -> Bool { holdsAnimation(format) || format == .avif }

    static func holdsAlpha(_ format: ImageFormat) -> Bool { format != .jpeg }
}
