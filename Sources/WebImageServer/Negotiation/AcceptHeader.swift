import Foundation

/// An `Accept` header's media ranges with their q-values (RFC 9110 §12.5.1), to ask how much a client wants
/// a media type.
struct AcceptHeader: Sendable {
    struct Range: Sendable, Hashable {
        var type: String
        var subtype: String
        var quality: Double
    }

    var ranges: [Range]

    /// Parses `image/avif,image/webp;q=0.9,*/*;q=0.8`; malformed ranges are skipped, a malformed q counts as 1.
    init(_ header: String?) {
        ranges = (header ?? "").split(separator: ",").compactMap { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let media = parts.first?.split(separator: "/", omittingEmptySubsequences: false) ?? []
            guard media.count == 2, !media[0].isEmpty, !media[1].isEmpty else { return nil }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                if let value = Double(parameter.dropFirst(2)), value.isFinite, (0...1).contains(value) {
                    quality = value
                }
            }
            return Range(type: String(media[0]), subtype: String(media[1]), quality: quality)
        }
    }

    /// The q-value of the range naming exactly `mediaType` (`image/webp`), or nil when no range names it: a
    /// format is chosen only when the client lists it, never from `*/*` or `image/*` alone.
    func explicitQuality(of mediaType: String) -> Double? {
        let media = mediaType.lowercased().split(separator: "/")
        guard media.count == 2 else { return nil }
        return ranges.first { $0.type == media[0] && $0.subtype == media[1] }?.quality
    }
}
