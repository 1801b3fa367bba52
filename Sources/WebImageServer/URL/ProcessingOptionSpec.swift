import WebImage

/// One imgproxy processing option, declared once: its names (the full one first, then the aliases), what its
/// arguments set in ``ProcessingOptions``, how it reaches the result, and how it enters the result key.
struct ProcessingOptionSpec: Sendable {
    /// How an option reaches the answer.
    enum Effect: Sendable, Equatable {
        /// It changes the image: its fields are part of the result key and of processing.
        case image
        /// It changes only the result key (a new cache entry), never the pixels.
        case keyOnly
        /// It is handled per request — checked before any work, or written into the answer's headers — and
        /// changes neither key nor image; the reason says how.
        case request(String)
    }

    typealias Apply = @Sendable (OptionArguments, inout ProcessingOptions) throws(ProxyError) -> Void

    let names: [String]
    let effect: Effect
    /// The option's part of the result key (``ResultKey`` joins them in declaration order); nil for a
    /// `.request` option, whatever its declaration says, and for one whose fields other options own.
    let key: ResultKeyPart?
    let apply: Apply
    /// What the key writes before this option's part: its shortest name (unique, as every name is).
    let keyName: String

    init(names: [String], effect: Effect, key: ResultKeyPart?, apply: @escaping Apply) {
        self.names = names
        keyName = names.min { $0.count < $1.count } ?? names[0]
        self.effect = effect
        if case .request = effect { self.key = nil } else { self.key = key }
        self.apply = apply
    }
}

/// The shapes a declaration in ``ProcessingOptionTable`` takes.
extension ProcessingOptionTable {
    static func spec(_ names: [String], effect: ProcessingOptionSpec.Effect = .image, key: ResultKeyPart?,
                     _ apply: @escaping ProcessingOptionSpec.Apply) -> ProcessingOptionSpec {
        ProcessingOptionSpec(names: names, effect: effect, key: key, apply: apply)
    }

    /// One argument, read by `read` (empty keeps the current value), setting `field`, which it owns in the key.
    static func single<Value: ResultKeyValue>(
        _ names: [String], _ field: WritableKeyPath<ProcessingOptions, Value> & Sendable,
        effect: ProcessingOptionSpec.Effect = .image,
        _ read: @escaping @Sendable (OptionArguments, Substring) throws(ProxyError) -> Value
    ) -> ProcessingOptionSpec {
        spec(names, effect: effect, key: .fields(field)) { arguments, options throws(ProxyError) in
            try arguments.single(&options[keyPath: field]) { text throws(ProxyError) in try read(arguments, text) }
        }
    }

    /// A switch: one boolean argument (`1`, `t`, `true` or `0`, `f`, `false`) setting `field`.
    static func flag(_ names: [String], _ field: WritableKeyPath<ProcessingOptions, Bool> & Sendable) -> ProcessingOptionSpec {
        single(names, field) { arguments, text throws(ProxyError) in try arguments.boolean(text) }
    }

    /// A security option: one argument setting `field`, refused unless the operator allows security options.
    static func securitySpec(_ names: [String], _ field: WritableKeyPath<ProcessingOptions, Int?> & Sendable,
                             _ read: @escaping @Sendable (OptionArguments, Substring) throws(ProxyError) -> Int)
        -> ProcessingOptionSpec {
        spec(names, key: .fields(field)) { arguments, options throws(ProxyError) in
            // 403, as imgproxy's SecurityOptionsError: the URL is well formed, the operator forbids the option.
            guard arguments.allowsSecurityOptions else {
                throw .forbidden("\(arguments.name) is a security option, and this service does not accept them "
                                  + "(--allow-security-options, IMGPROXY_ALLOW_SECURITY_OPTIONS)")
            }
            try arguments.count(1...1)
            options[keyPath: field] = try read(arguments, arguments.values[0])
        }
    }
}
