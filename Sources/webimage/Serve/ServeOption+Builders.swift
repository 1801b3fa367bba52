import Foundation
import WebImage

/// The shapes of option the table uses; each reads the default it documents from ``ServeSettings/defaults``.
extension ServeOption {
    /// The largest number a setting takes: seconds, milliseconds and bytes below it convert to every clock and
    /// integer type the libraries take (NIO's `TimeAmount` traps past Int64 nanoseconds) without overflow.
    static let maxSetting = 1_000_000_000
    /// The largest byte count a setting takes (1 TiB).
    static let maxBytes = 1 << 40

    /// A whole number in `minimum...maximum`.
    static func number(_ name: String, _ variables: [String], _ help: String, field: String,
                       _ keyPath: WritableKeyPath<ServeSettings, Int> & Sendable, minimum: Int = 1,
                       maximum: Int = maxSetting, defaultText: String? = nil) -> ServeOption {
        ServeOption(name: name, variables: variables, kind: .value("N"),
                    help: help + " Default \(defaultText ?? String(ServeSettings.defaults[keyPath: keyPath])).",
                    field: field) { settings, given in
            settings[keyPath: keyPath] = try wholeNumber(given, minimum: minimum, maximum: maximum)
        }
    }

    /// A whole number of `unit`s (seconds unless said), at least one (or zero when `minimum` is 0).
    static func duration(_ name: String, _ variables: [String], _ help: String, field: String,
                         _ keyPath: WritableKeyPath<ServeSettings, Duration> & Sendable, unit: Duration = .seconds(1),
                         minimum: Int = 1) -> ServeOption {
        let shown = Int(ServeSettings.defaults[keyPath: keyPath] / unit)
        return ServeOption(name: name, variables: variables, kind: .value("N"),
                           help: help + " Default \(shown).", field: field) { settings, given in
            settings[keyPath: keyPath] = unit * (try wholeNumber(given, minimum: minimum, maximum: maxSetting))
        }
    }

    /// A number in `range`, with its default printed as Swift prints it.
    static func decimal(_ name: String, _ variables: [String], _ help: String, field: String,
                        _ keyPath: WritableKeyPath<ServeSettings, Double> & Sendable,
                        range: ClosedRange<Double>) -> ServeOption {
        ServeOption(name: name, variables: variables, kind: .value("N"),
                    help: help + " Default \(ServeSettings.defaults[keyPath: keyPath]).", field: field) { settings, given in
            guard let number = Double(given.text), number.isFinite, range.contains(number) else {
                throw given.failure("give a number from \(range.lowerBound) to \(range.upperBound)")
            }
            settings[keyPath: keyPath] = number
        }
    }

    /// `FORMAT=Q` entries (repeatable; a variable's comma list), each quality 1–100, into `keyPath`'s table.
    static func formatQualities(_ name: String, _ variables: [String], _ help: String, field: String,
                                _ keyPath: WritableKeyPath<ServeSettings, [ImageFormat: Int]> & Sendable) -> ServeOption {
        ServeOption(name: name, variables: variables, kind: .list("FORMAT=Q"), help: help, field: field) { settings, given in
            for entry in given.values {
                let parts = entry.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let format = ImageFormat(fileExtension: String(parts[0]).lowercased()),
                      format != .undefined, let quality = Int(parts[1]), (1...100).contains(quality) else {
                    throw CLIFailure(subject: given.origin, reason: "bad value '\(entry)': give FORMAT=QUALITY (e.g. webp=79)")
                }
                settings[keyPath: keyPath][format] = quality
            }
        }
    }

    /// One of a setting's names (its raw values, any case), passed to `apply`.
    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ variables: [String], _ help: String, field: String, defaultText: String,
        _ apply: @escaping @Sendable (inout ServeSettings, Choice) -> Void
    ) -> ServeOption where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        return ServeOption(name: name, variables: variables, kind: .value("NAME"),
                           help: help + " One of \(names). Default \(defaultText).", field: field) { settings, given in
            guard let choice = Choice(rawValue: given.text.lowercased()) else {
                throw given.failure("give one of \(names)")
            }
            apply(&settings, choice)
        }
    }

    /// On with the flag or a true variable; `sets` is what "on" stores (false for a `--no-…` flag).
    static func toggle(_ name: String, _ variables: [String], _ help: String, field: String,
                       _ keyPath: WritableKeyPath<ServeSettings, Bool> & Sendable, sets: Bool = true) -> ServeOption {
        ServeOption(name: name, variables: variables, kind: .toggle, help: help, field: field) { settings, given in
            if given.text == "true" { settings[keyPath: keyPath] = sets }
        }
    }

    /// `--name` and `--no-name` (a variable 1 or 0) setting `keyPath`.
    static func invertible(_ name: String, _ variables: [String], _ help: String, field: String,
                           _ keyPath: WritableKeyPath<ServeSettings, Bool> & Sendable) -> ServeOption {
        ServeOption(name: name, variables: variables, kind: .invertible, help: help, field: field) { settings, given in
            settings[keyPath: keyPath] = given.text == "true"
        }
    }

    /// Repeated values, each checked by `check`.
    static func list(_ name: String, _ variables: [String], _ help: String, valueName: String, field: String,
                     _ keyPath: WritableKeyPath<ServeSettings, [String]> & Sendable,
                     check: @escaping @Sendable (String) -> String? = { _ in nil }) -> ServeOption {
        ServeOption(name: name, variables: variables, kind: .list(valueName), help: help, field: field) { settings, given in
            for value in given.values {
                if let problem = check(value) {
                    throw CLIFailure(subject: given.origin, reason: "bad value '\(value)': \(problem)")
                }
            }
            settings[keyPath: keyPath] = given.values
        }
    }

    static func wholeNumber(_ given: Given, minimum: Int, maximum: Int) throws -> Int {
        guard let number = Int(given.text), number >= minimum else {
            throw given.failure(minimum > 0 ? "give a positive whole number" : "give a whole number")
        }
        guard number <= maximum else { throw given.failure("give at most \(maximum)") }
        return number
    }
}
