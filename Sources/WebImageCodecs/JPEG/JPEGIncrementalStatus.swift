import CJPEGShim
import WebImageCore

/// What a status of the incremental libjpeg decoder (CJPEGShim) means for its caller.
enum JPEGIncrementalStatus {
    /// True when the step succeeded, false when it needs more bytes; throws when it failed or when a
    /// finished buffer still needs more (the file is cut short).
    static func check(_ status: WIJPEGStatus, _ decoder: OpaquePointer, isFinished: Bool) throws(WebImageError) -> Bool {
        switch status {
        case WI_JPEG_PROGRESS, WI_JPEG_DONE:
            return true
        case WI_JPEG_NEED_MORE:
            if isFinished { throw .badImageData(.truncated) }
            return false
        default:
            if wi_jpeg_incremental_cancelled(decoder) != 0 { throw .cancelled }
            let message = String(cString: wi_jpeg_incremental_message(decoder))
            if wi_jpeg_incremental_truncated(decoder) != 0 || JPEGErrors.isTruncation(message) {
                throw .badImageData(.truncated)
            }
            throw JPEGErrors.corrupt(message)
        }
    }
}
