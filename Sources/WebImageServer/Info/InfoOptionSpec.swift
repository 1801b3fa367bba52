/// One imgproxy Pro info option, declared once: its names (the full one first), what its arguments set in
/// ``InfoOptions``, and the fields it owns in the answer's cache key (none for `expires`, checked per request).
struct InfoOptionSpec: Sendable {
    typealias Apply = @Sendable (OptionArguments, inout InfoOptions) throws(ProxyError) -> Void

    let names: [String]
    let apply: Apply
    /// The option's part of the key: its fields' texts, `:`-separated, nil while they keep their defaults.
    let key: (@Sendable (InfoOptions) -> String?)?
    /// What the key writes before this option's part: its shortest name.
    var keyName: String { names.min { $0.count < $1.count } ?? names[0] }

    private static let defaults = InfoOptions()

    /// An option owning `paths` in the key.
    init<each Value: ResultKeyValue>(_ names: [String], owns paths: repeat KeyPath<InfoOptions, each Value> & Sendable,
                                     apply: @escaping Apply) {
        self.names = names
        self.apply = apply
        var isDefault: [@Sendable (InfoOptions) -> Bool] = []
        var texts: [@Sendable (InfoOptions) -> String] = []
        for path in repeat each paths {
            isDefault.append { $0[keyPath: path] == Self.defaults[keyPath: path] }
            texts.append { $0[keyPath: path].keyText }
        }
        let part: @Sendable (InfoOptions) -> String? = { [isDefault, texts] options in
            guard !isDefault.allSatisfy({ $0(options) }) else { return nil }
            return texts.map { $0(options) }.joined(separator: ":")
        }
        key = isDefault.isEmpty ? nil : part
    }
}
