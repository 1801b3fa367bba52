import Foundation

/// One `webimage serve` setting, declared once: its flag, the environment variables that stand in for it (ours,
/// then imgproxy's where the meaning is the same), its help, and how its text sets the one field of
/// ``ServeSettings`` it names.
struct ServeOption: Sendable {
    enum Kind: Sendable {
        /// `--name VALUE`; a variable holds the value.
        case value(String)
        /// `--name VALUE`, repeatable; a variable holds a comma-separated list.
        case list(String)
        /// `--name` turns it on; a variable holds 1, true or yes (on) or 0, false or no (off).
        case toggle
        /// `--name` and `--no-name`; a variable as for a toggle.
        case invertible
    }

    /// What was given for an option: its values (`true`/`false` for a toggle) and where, to name in an error.
    struct Given: Sendable {
        var values: [String]
        var origin: String

        /// The single value of a `.value` option.
        var text: String { values.last ?? "" }

        func failure(_ reason: String) -> CLIFailure {
            CLIFailure(subject: origin, reason: "bad value '\(values.joined(separator: ","))': \(reason)")
        }
    }

    let name: String
    let variables: [String]
    let kind: Kind
    let help: String
    /// The field it ends in, as written in Swift from ``ServeSettings`` (`configuration.limits.maxSourceBytes`);
    /// a few options pass through a field ``ServeSettings/finish()`` combines (`--key` and `--salt` into the
    /// key pairs, the shared-cache options into `configuration.caches.shared`).
    let field: String
    let apply: @Sendable (inout ServeSettings, Given) throws -> Void

    var flag: String { "--\(name)" }

    /// The value the flags or, without one, the first variable set give; nil when neither does.
    func given(flags: [String], environment: [String: String]) throws -> Given? {
        if !flags.isEmpty { return Given(values: flags, origin: flag) }
        guard let variable = variables.first(where: { !(environment[$0] ?? "").isEmpty }),
              let text = environment[variable] else { return nil }
        switch kind {
        case .value:
            return Given(values: [text], origin: variable)
        case .list:
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return Given(values: items.filter { !$0.isEmpty }, origin: variable)
        case .toggle, .invertible:
            switch text.lowercased() {
            case "1", "true", "yes": return Given(values: ["true"], origin: variable)
            case "0", "false", "no": return Given(values: ["false"], origin: variable)
            default: throw CLIFailure(subject: variable, reason: "bad value '\(text)': give 1 or 0")
            }
        }
    }
}
