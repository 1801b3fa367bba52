import WebImage

/// Reads imgproxy's `/`-separated `name:arg:arg` processing options into ``ProcessingOptions``.
///
/// Names and aliases follow imgproxy (`resize`/`rs`, `size`/`s`, `width`/`w`, …). Arguments left empty keep
/// the current value, as in imgproxy (`rs::300` changes only the width). Anything malformed or unknown throws
/// ``ProxyError/badRequest(_:)`` naming the option; presets expand from the operator's table, at most
/// ``maxPresetDepth`` levels deep so a preset naming itself cannot loop.
public struct OptionsParser: Sendable {
    /// Named option lists (`thumb` → `rs:fill:300:300/q:80`), used by `preset:NAME` / `pr:NAME`. Default none.
    public var presets: [String: String]
    /// The largest width, height or crop side accepted in a URL (before `dpr`). Default 16,384.
    public var maxDimension: Int

    static let maxPresetDepth = 4

    public init(presets: [String: String] = [:], maxDimension: Int = 16_384) {
        self.presets = presets
        self.maxDimension = maxDimension
    }

    /// Applies every option of `segments`, in order, to `options`.
    public func apply(_ segments: [Substring], to options: inout ProcessingOptions) throws(ProxyError) {
        try apply(segments, to: &options, depth: 0)
    }

    private func apply(_ segments: [Substring], to options: inout ProcessingOptions, depth: Int) throws(ProxyError) {
        for segment in segments where !segment.isEmpty {
            let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
            let arguments = OptionArguments(name: String(parts[0]), values: Array(parts.dropFirst()),
                                            maxDimension: maxDimension)
            if arguments.name == "preset" || arguments.name == "pr" {
                try applyPresets(arguments, to: &options, depth: depth)
            } else {
                try ProcessingOptionTable.spec(named: arguments.name).apply(arguments, &options)
            }
        }
    }

    private func applyPresets(_ arguments: OptionArguments, to options: inout ProcessingOptions,
                              depth: Int) throws(ProxyError) {
        guard depth < Self.maxPresetDepth else {
            throw .badRequest("presets nest deeper than \(Self.maxPresetDepth) levels")
        }
        guard !arguments.values.isEmpty else { throw .badRequest("preset needs a name") }
        for name in arguments.values {
            guard let preset = presets[String(name)] else { throw .badRequest("unknown preset '\(name)'") }
            try apply(preset.split(separator: "/"), to: &options, depth: depth + 1)
        }
    }
}
