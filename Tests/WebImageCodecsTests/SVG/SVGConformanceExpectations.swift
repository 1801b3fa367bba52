/// What the resvg subset gives with librsvg 2.54 (see ``SVGConformanceTests``).
enum SVGConformanceExpectations {
    /// The documents in `Tests/Corpus/resvg/`.
    static let documentCount = 386
    /// The documents within tolerance: every one not in ``failures``.
    static let passCount = documentCount - failures.count
    /// Documents librsvg draws differently from resvg's reference, and why.
    static let failures: [String: String] = [:]
}
