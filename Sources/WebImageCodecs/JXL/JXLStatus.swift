import CJXL
import WebImageCore

/// libjxl statuses as our errors.
enum JXLStatus {
    /// The typed error for a status that stops a decode of complete bytes: more input wanted means the file
    /// ends early; anything unexpected is corruption.
    static func error(_ status: JxlDecoderStatus, _ context: String) -> WebImageError {
        switch status {
        case JXL_DEC_NEED_MORE_INPUT: .badImageData(.truncated)
        case JXL_DEC_ERROR: .badImageData(.corrupt("libjxl could not decode the \(context)"))
        default: .badImageData(.corrupt("libjxl stopped at an unexpected point (status \(status.rawValue)) in the \(context)"))
        }
    }
}
