import WebImage

/// Reads imgproxy's `/`-separated `name:arg:arg` processing options into ``ProcessingOptions``.
///
/// Names and aliases follow imgproxy (`resize`/`rs`, `size`/`s`, `width`/`w`, …). Arguments left empty keep
/// the current value, as in imgproxy (`rs::300` changes only the width). Anything malformed or unknown throws
/// ``ProxyError/badRequest(_:)`` naming the option; presets expand from the operator's table, at most
/// ``maxPresetDepth`` levels deep so a preset naming itself cannot loop. A preset named `default` applies to
/// every URL before its own options, as in imgproxy.
public struct OptionsParser: Sendable {
    /// Named option lists (`thumb` → `rs:fill:300:300/q:80`), used by `preset:NAME` / `pr:NAME`. Default none.
    public var presets: [String: String]
    /// The largest width, height or crop side accepted in a URL (before `dpr`). Default 16,384.
    public var maxDimension: Int
    /// imgproxy's presets-only mode (`IMGPROXY_ONLY_PRESETS`): each option segment of a URL is a
    /// `:`-separated list of preset names, and nothing else is accepted. Default false.
    public var onlyPresets: Bool
    /// Accept imgproxy's per-URL security options (`max_src_resolution`, …), which can only lower the
    /// operator's limits here; refused otherwise. Default false.
    public var allowsSecurityOptions: Bool

    static let maxPresetDepth = 4

    public init(presets: [String: String] = [:], maxDimension: Int = 16_384, onlyPresets: Bool = false,
                allowsSecurityOptions: Bool = false) {
        self.presets = presets
        self.maxDimension = maxDimension
        self.onlyPresets = onlyPresets
        self.allowsSecurityOptions = allowsSecurityOptions
    }

    /// The most pipelines one URL may chain (imgproxy Pro's `-`), presets' included.
    public static let maxPipelines = 8

    /// imgproxy Pro's chained pipelines: `segments` split at `-`, the first applied to `options` (after the
    /// `default` preset), each other to its own copy of `base`. A preset's own `-` parts are merged into the
    /// pipelines after the one that names it, applied before their own options (imgproxy's rule), adding
    /// pipelines when the URL has fewer.
    public func pipelines(_ segments: [Substring], first options: inout ProcessingOptions,
                          base: ProcessingOptions) throws(ProxyError) -> [ProcessingOptions] {
        let groups = segments.split(separator: "-", omittingEmptySubsequences: false).map(Array.init)
        guard !onlyPresets || groups.count == 1 else { throw .badRequest("presets-only URLs cannot chain pipelines") }
        guard groups.count <= Self.maxPipelines else {
            throw .badRequest("at most \(Self.maxPipelines) chained pipelines, not \(groups.count)")
        }
        var pending: [[Substring]] = []
        var result: [ProcessingOptions] = []
        var index = 0
        while index < max(groups.count, pending.count + 1), index < Self.maxPipelines {
            var pipeline = index == 0 ? options : base
            var chained: [[Substring]] = []
            let own = index < groups.count ? groups[index] : []
            let inherited = index > 0 && index - 1 < pending.count ? pending[index - 1] : []
            if index == 0 {
                try apply(own, to: &pipeline)
                chained = try presetChains(own)
            } else {
                try apply(inherited + own, to: &pipeline, depth: 0)
                chained = try presetChains(own)
            }
            for (offset, part) in chained.enumerated() {
                let slot = index + offset
                while pending.count <= slot { pending.append([]) }
                pending[slot] += part
            }
            result.append(pipeline)
            index += 1
        }
        guard max(groups.count, pending.count + 1) <= Self.maxPipelines else {
            throw .badRequest("at most \(Self.maxPipelines) chained pipelines, presets' included")
        }
        options = result[0]
        return Array(result.dropFirst())
    }

    /// The `-` parts after the first of every preset `segments` name (their first parts apply in place).
    private func presetChains(_ segments: [Substring]) throws(ProxyError) -> [[Substring]] {
        var chains: [[Substring]] = []
        for segment in segments {
            let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.first == "preset" || parts.first == "pr" else { continue }
            for name in parts.dropFirst() {
                guard let preset = presets[String(name)] else { continue }
                let groups = preset.split(separator: "/").split(separator: "-", omittingEmptySubsequences: false)
                for (offset, group) in groups.dropFirst().enumerated() {
                    while chains.count <= offset { chains.append([]) }
                    chains[offset] += group
                }
            }
        }
        return chains
    }

    /// Applies the `default` preset, then every option of `segments` in order, to `options`.
    public func apply(_ segments: [Substring], to options: inout ProcessingOptions) throws(ProxyError) {
        if let defaults = presets["default"] {
            try apply(defaults.split(separator: "/"), to: &options, depth: 1)
        }
        if onlyPresets {
            for segment in segments where !segment.isEmpty {
                try applyPresets(OptionArguments(name: "preset", values: segment.split(separator: ":",
                                                                                       omittingEmptySubsequences: false),
                                                 maxDimension: maxDimension), to: &options, depth: 0)
            }
            return
        }
        try apply(segments, to: &options, depth: 0)
    }

    /// Checks every preset on its own (each must parse, within the nesting limit): an operator's mistake shows
    /// at start-up, not on the first request that names it.
    public func validatePresets() throws(ProxyError) {
        for (name, preset) in presets.sorted(by: { $0.key < $1.key }) {
            var options = ProcessingOptions()
            do {
                try OptionsParser(presets: presets, maxDimension: maxDimension, allowsSecurityOptions: allowsSecurityOptions)
                    .apply(preset.split(separator: "/"), to: &options, depth: 1)
            } catch {
                throw .badRequest("preset '\(name)': \(error.message)")
            }
        }
    }

    private func apply(_ segments: [Substring], to options: inout ProcessingOptions, depth: Int) throws(ProxyError) {
        for segment in segments where !segment.isEmpty {
            let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
            let arguments = OptionArguments(name: String(parts[0]), values: Array(parts.dropFirst()),
                                            maxDimension: maxDimension, allowsSecurityOptions: allowsSecurityOptions)
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
            // A chained preset's later parts go to the pipelines after this one (``pipelines(_:first:base:)``).
            let inPlace = preset.split(separator: "/").split(separator: "-", omittingEmptySubsequences: false).first ?? []
            try apply(Array(inPlace), to: &options, depth: depth + 1)
        }
    }
}
