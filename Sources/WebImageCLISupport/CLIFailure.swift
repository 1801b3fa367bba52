import WebImage

/// A failure `webimage` (and `webimage-demo`) reports as one line, `webimage: <subject>: <reason>`, naming the
/// file it concerns.
package struct CLIFailure: Error, CustomStringConvertible {
    /// The file (or step) the failure is about.
    package var subject: String
    /// What went wrong, in one line.
    package var reason: String

    package init(subject: String, reason: String) {
        self.subject = subject
        self.reason = reason
    }

    /// Wraps any error about `subject`; a ``WebImageError`` keeps its own description.
    package init(subject: String, error: any Error) {
        switch error {
        case let failure as CLIFailure: self = failure
        case let error as WebImageError: self.init(subject: subject, reason: error.description)
        default: self.init(subject: subject, reason: String(describing: error))
        }
    }

    /// The stderr line, with any line breaks in the reason flattened so it stays one line.
    package var description: String {
        let flat = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "webimage: \(subject): \(flat)"
    }
}
