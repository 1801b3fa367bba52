extension ImageProxyConfiguration {
    /// How `/info` reads its options: imgproxy Pro's info presets, presets-only mode and allow-list.
    public struct Info: Sendable {
        /// Named info option lists for `preset:NAME` (`IMGPROXY_INFO_PRESETS`); one named `default` applies to
        /// every info URL first. Default none.
        public var presets: [String: String]
        /// Info URLs' options are one segment of `:`-separated preset names (`IMGPROXY_INFO_ONLY_PRESETS`); nil
        /// follows ``Processing/onlyPresets``, as imgproxy's default does. Default nil.
        public var onlyPresets: Bool?
        /// The info option names a URL may use itself, full and short names each on its own
        /// (`IMGPROXY_ALLOWED_INFO_OPTIONS`); presets are not held to it. Default empty: all.
        public var allowedOptions: [String]

        public init(presets: [String: String] = [:], onlyPresets: Bool? = nil, allowedOptions: [String] = []) {
            self.presets = presets
            self.onlyPresets = onlyPresets
            self.allowedOptions = allowedOptions
        }
    }
}

extension ImageProxyConfiguration.Info {
    /// Checks every info preset on its own (each must parse, within the nesting limit), as `webimage serve` does
    /// at start-up.
    public func validatePresets() throws(ProxyError) {
        try InfoOptionsParser(presets: presets).validatePresets()
    }
}

/// The names and short names of the info options `/info` takes.
public enum InfoOptionNames {
    public static let all: Set<String> = Set(InfoOptionTable.all.flatMap(\.names) + ["preset", "pr"])
}
