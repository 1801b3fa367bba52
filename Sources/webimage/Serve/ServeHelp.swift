/// `webimage serve --help`'s list of options, made from ``ServeOptions/all``.
enum ServeHelp {
    static var text: String {
        let lines = ServeOptions.all.map { option -> String in
            let usage: String = switch option.kind {
            case .value(let name): "\(option.flag) \(name)"
            case .list(let name): "\(option.flag) \(name) (repeatable)"
            case .toggle: option.flag
            case .invertible: "\(option.flag), --no-\(option.name)"
            }
            return (["  \(usage)"] + wrapped(option.help) + wrapped("Environment: "
                + option.variables.joined(separator: ", "))).joined(separator: "\n")
        }
        return """
            Prints one line, 'listening on http://HOST:PORT', once it accepts connections (and with --metrics-bind \
            a second, 'metrics on http://HOST:PORT', in either order); logs (and one access line per request) go \
            to stderr.

            Every option can also be set by its environment variable (a flag wins; the first variable listed wins \
            over the next; a list takes comma-separated values; a switch takes 1 or 0). imgproxy's IMGPROXY_* \
            names are read where the meaning is the same; any other IMGPROXY_* variable set is reported as \
            ignored at start-up.

            OPTIONS:

            """ + lines.joined(separator: "\n")
    }

    /// `text` in lines of at most 78 columns indented by six, so the help formatter keeps them as they are.
    private static func wrapped(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, 6 + line.count + 1 + word.count > 78 {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " \(word)"
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { "      " + $0 }
    }
}
