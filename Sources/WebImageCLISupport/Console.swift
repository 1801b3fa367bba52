import Foundation

/// Writing to the standard streams.
package enum Console {
    /// Writes one line to stderr.
    package static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
