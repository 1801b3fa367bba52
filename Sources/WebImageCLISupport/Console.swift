import WebImage

/// Writing to the standard streams.
package enum Console {
    /// Writes one line to stderr (the original stream while the C libraries' output is captured).
    package static func error(_ line: String) {
        StandardErrorOutput.write(line + "\n")
    }
}
