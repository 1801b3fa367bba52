/// `serve`'s command line read against ``ServeOptions/all``: `--name VALUE`, `--name=VALUE`, `--toggle`,
/// `--no-name` for an invertible one.
enum ServeArguments {
    /// The values given for each option's name (`true`/`false` for toggles), in order.
    static func parse(_ arguments: [String]) throws -> [String: [String]] {
        let options = Dictionary(uniqueKeysWithValues: ServeOptions.all.map { ($0.name, $0) })
        var given: [String: [String]] = [:]
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw CLIFailure(subject: "serve", reason: "unexpected argument '\(argument)': see webimage serve --help")
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            if let option = options[name] {
                switch option.kind {
                case .value(let valueName), .list(let valueName):
                    guard let value = inline ?? remaining.popFirst() else {
                        throw CLIFailure(subject: option.flag, reason: "missing value: give \(valueName)")
                    }
                    given[name, default: []].append(value)
                case .toggle, .invertible:
                    guard inline == nil else {
                        throw CLIFailure(subject: option.flag, reason: "takes no value")
                    }
                    given[name] = ["true"]
                }
            } else if name.hasPrefix("no-"), let option = options[String(name.dropFirst(3))],
                      case .invertible = option.kind, inline == nil {
                given[option.name] = ["false"]
            } else {
                throw CLIFailure(subject: "serve", reason: "unknown option '--\(name)': see webimage serve --help")
            }
        }
        return given
    }
}
