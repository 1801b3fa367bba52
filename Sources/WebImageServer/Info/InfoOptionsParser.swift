/// Reads `/info`'s `/`-separated `name:arg:arg` options into ``InfoOptions``: imgproxy Pro's info options, its
/// info presets (`preset:NAME`, a `default` one applied first, at most ``OptionsParser/maxPresetDepth`` deep),
/// its presets-only mode and its allow-list (`IMGPROXY_ALLOWED_INFO_OPTIONS`, which presets are not held to).
struct InfoOptionsParser: Sendable {
    /// Named info option lists (`IMGPROXY_INFO_PRESETS`).
    var presets: [String: String] = [:]
    /// Each option segment of a URL is a `:`-separated list of preset names (`IMGPROXY_INFO_ONLY_PRESETS`).
    var onlyPresets = false
    /// The option names a URL may use itself; empty: all.
    var allowed: Set<String> = []

    /// `segments` applied, after the `default` preset, to the defaults.
    func options(_ segments: [Substring]) throws(ProxyError) -> InfoOptions {
        var options = InfoOptions()
        if let defaults = presets["default"] { try apply(defaults.split(separator: "/"), to: &options, depth: 1) }
        for segment in segments where !segment.isEmpty {
            if onlyPresets {
                try applyPresets(segment.split(separator: ":", omittingEmptySubsequences: false), to: &options, depth: 0)
            } else {
                try apply([segment], to: &options, depth: 0)
            }
        }
        return options
    }

    /// Checks every preset on its own: a mistake shows at start-up, not on the first request naming it.
    func validatePresets() throws(ProxyError) {
        for (name, preset) in presets.sorted(by: { $0.key < $1.key }) {
            var options = InfoOptions()
            do {
                try apply(preset.split(separator: "/"), to: &options, depth: 1)
            } catch {
                throw .badRequest("info preset '\(name)': \(error.message)")
            }
        }
    }

    private func apply(_ segments: [Substring], to options: inout InfoOptions, depth: Int) throws(ProxyError) {
        for segment in segments where !segment.isEmpty {
            let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
            let name = String(parts[0])
            // Only the URL's own options are held to the allow-list, as imgproxy does.
            if depth == 0, !allowed.isEmpty, !allowed.contains(name) {
                throw .forbidden("info option '\(name)' is not allowed here (IMGPROXY_ALLOWED_INFO_OPTIONS)")
            }
            if name == "preset" || name == "pr" {
                try applyPresets(Array(parts.dropFirst()), to: &options, depth: depth)
            } else {
                let arguments = OptionArguments(name: name, values: Array(parts.dropFirst()), maxDimension: 16_384)
                try InfoOptionTable.spec(named: name).apply(arguments, &options)
            }
        }
    }

    private func applyPresets(_ names: [Substring], to options: inout InfoOptions, depth: Int) throws(ProxyError) {
        guard depth < OptionsParser.maxPresetDepth else {
            throw .badRequest("info presets nest deeper than \(OptionsParser.maxPresetDepth) levels")
        }
        guard !names.isEmpty else { throw .badRequest("preset needs a name") }
        for name in names {
            guard let preset = presets[String(name)] else { throw .badRequest("unknown info preset '\(name)'") }
            try apply(preset.split(separator: "/"), to: &options, depth: depth + 1)
        }
    }
}
