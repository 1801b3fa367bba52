/// How one processing option enters the result key: the fields of ``ProcessingOptions`` it owns (each field
/// has one owner, so options that write the same fields — `resize`, `size`, `width` — give the same key) and
/// their text, nothing while they keep their defaults.
struct ResultKeyPart: Sendable {
    /// The fields this part stands for.
    let fields: [PartialKeyPath<ProcessingOptions> & Sendable]
    /// The part's text; nil when it adds nothing.
    let text: @Sendable (ProcessingOptions) -> String?

    /// `paths`' values, `:`-separated, when any differs from its default and `condition` (when given) holds.
    static func fields<each Value: ResultKeyValue>(_ paths: repeat KeyPath<ProcessingOptions, each Value> & Sendable,
                                                  when condition: (@Sendable (ProcessingOptions) -> Bool)? = nil)
        -> ResultKeyPart {
        var fields: [PartialKeyPath<ProcessingOptions> & Sendable] = []
        var isDefault: [@Sendable (ProcessingOptions) -> Bool] = []
        var texts: [@Sendable (ProcessingOptions) -> String] = []
        for path in repeat each paths {
            fields.append(path)
            isDefault.append { $0[keyPath: path] == defaults[keyPath: path] }
            texts.append { $0[keyPath: path].keyText }
        }
        // Every request walks every part: the texts are made only for a part that enters the key.
        return ResultKeyPart(fields: fields) { [isDefault, texts] options in
            guard condition?(options) ?? true, !isDefault.allSatisfy({ $0(options) }) else { return nil }
            return texts.map { $0(options) }.joined(separator: ":")
        }
    }

    private static let defaults = ProcessingOptions()
}

/// A value as it is written in the result key. Different values have different texts, none holds `/` or `|`
/// (which separate the key's parts), and a `:` inside one only where its first characters say how many follow,
/// so the `:`-separated fields of a part cannot be read two ways.
protocol ResultKeyValue: Equatable, Sendable {
    var keyText: String { get }
}
