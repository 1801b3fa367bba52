import ArgumentParser

/// An option's value exactly as typed, turned into `Value` by the command itself.
///
/// ArgumentParser answers a value its type rejects (`--thumbnail abc`) with usage text and status 64, and
/// reads `-1` as an option name ("Missing value"). Declared with `parsing: .unconditional` and checked with
/// ``value(_:about:hint:where:)``, a bad value ends like every other failure of the tool: one line naming
/// the option and the value, status 1.
struct OptionValue<Value: ExpressibleByArgument>: ExpressibleByArgument {
    /// The text given on the command line.
    let text: String

    init(argument: String) {
        text = argument
    }

    /// Shown as the default in the help, exactly as written here.
    var defaultValueDescription: String { text }

    /// The value, when `text` parses as `Value` and passes `isValid`; else a failure about `subject`
    /// (`bad --frame '-1': give 0 or more`), or, without a subject, about the option itself
    /// (`--timeout: bad value '-1': …`).
    func value(_ option: String, about subject: String? = nil, hint: String,
               where isValid: (Value) -> Bool = { _ in true }) throws -> Value {
        guard let value = Value(argument: text), isValid(value) else {
            guard let subject else { throw CLIFailure(subject: option, reason: "bad value '\(text)': \(hint)") }
            throw CLIFailure(subject: subject, reason: "bad \(option) '\(text)': \(hint)")
        }
        return value
    }
}

/// Hints shared by the options that take the same kind of value.
enum OptionHint {
    static let size = "give WxH, two positive whole numbers (e.g. 200x150)"
    static let byteCount = "give a positive whole number of bytes"
    static let quality = "give a number from 0 to 1"
}
