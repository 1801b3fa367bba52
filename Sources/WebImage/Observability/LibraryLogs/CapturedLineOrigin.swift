import WebImageCodecs

/// Which library a line captured from standard error came from, told by the shapes of the lines each is known to
/// write: every library writes to the same descriptor, so nothing else says.
enum CapturedLineOrigin {
    static func message(_ line: String) -> LibraryLogMessage {
        if let message = glibDefault(line) { return message }
        let library = shapes.first { $0.matches(line) }?.library ?? LibraryLogMessage.unidentified
        return LibraryLogMessage(library: library, text: line)
    }

    /// libjxl's failure traces (`./lib/jxl/modular/encoding/dec_ma.cc:90: JXL_FAILURE: …`), dav1d's messages
    /// through libavif (`Unknown OBU type 0 of size 38`, `Error parsing frame header`), libjpeg's warnings
    /// (`Corrupt JPEG data: premature end of data segment`, from poppler's JPEG streams).
    private static let shapes: [(library: String, matches: @Sendable (String) -> Bool)] = [
        ("libjxl", { $0.contains("lib/jxl/") || $0.contains("JXL_") }),
        ("dav1d", { $0.contains(" OBU") || $0.hasPrefix("Error parsing ") || $0.hasPrefix("Input validation check") }),
        ("libjpeg", { $0.contains("JPEG") }),
    ]

    private static let glibLevels: Set<Substring> = ["ERROR", "CRITICAL", "WARNING", "Message", "INFO", "DEBUG"]

    /// A line of GLib's default writer (a child's, whose standard error is this process's):
    /// `(program:pid): Domain-LEVEL **: 12:00:00.000: text`, or `Domain-INFO: 12:00:00.000: text`. Its domain in
    /// lower case (`glib` when it has none) and its text.
    private static func glibDefault(_ line: String) -> LibraryLogMessage? {
        var rest = Substring(line)
        if rest.hasPrefix("** ") { rest = rest.dropFirst(3) }
        var namesProgram = false
        if rest.hasPrefix("("), let end = rest.range(of: "): ") {
            rest = rest[end.upperBound...]
            namesProgram = true
        }
        guard let colon = rest.range(of: ": ") else { return nil }
        var label = rest[..<colon.lowerBound]
        if label.hasSuffix(" **") { label = label.dropLast(3) }
        let dash = label.lastIndex(of: "-")
        let level = dash.map { label[label.index(after: $0)...] } ?? label
        let domain = dash.map { label[..<$0] }
        guard glibLevels.contains(level), domain != nil || namesProgram else { return nil }
        var text = rest[colon.upperBound...]
        if isTimestamp(text.prefix(14)) { text = text.dropFirst(14) }
        return LibraryLogMessage(library: domain.map { $0.lowercased() } ?? "glib", text: String(text))
    }

    /// `HH:MM:SS.mmm: `, the time GLib's writer puts before the text.
    private static func isTimestamp(_ text: Substring) -> Bool {
        let shape = Array("00:00:00.000: ")
        return text.count == shape.count && zip(text, shape).allSatisfy { $1 == "0" ? $0.isASCII && $0.isNumber : $0 == $1 }
    }
}
