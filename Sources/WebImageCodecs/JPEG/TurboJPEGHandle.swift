import CTurboJPEG
import WebImageCore

/// Owns one TurboJPEG instance for the duration of a call (instances are not thread-safe, and creating one
/// costs far less than a decode, so every decode or encode makes its own).
final class TurboJPEGHandle {
    let raw: tjhandle

    /// A decompressor (`forDecoding`) or compressor; throws if TurboJPEG cannot allocate one.
    init(forDecoding: Bool) throws {
        guard let handle = forDecoding ? tjInitDecompress() : tjInitCompress() else {
            throw WebImageError.badImageData(.corrupt("TurboJPEG could not create an instance"))
        }
        raw = handle
    }

    deinit { tjDestroy(raw) }

    /// The failed call's text: the fatal error if there was one, else the first warning.
    var message: String { String(cString: tjGetErrorStr2(raw)) }
}

/// How JPEG warnings and errors become ``WebImageError``s, shared by the one-shot and incremental decoders.
enum JPEGErrors {
    /// libjpeg's texts for data that stops early ("Premature end of JPEG file", "Corrupt JPEG data:
    /// premature end of data segment"): it fills the rest with grey and only warns.
    static func isTruncation(_ message: String) -> Bool {
        message.lowercased().contains("premature end of jpeg file")
            || message.lowercased().contains("premature end of data segment")
    }

    /// libjpeg-turbo's warning texts (`JWRN_*` in jerror.h). TurboJPEG 2.1 reports "warning" for a call
    /// that hit a fatal error after a warning, so the text is the only way to tell a complete image with
    /// damaged data from a failed decode: a fatal error always replaces the text with its own.
    static func isWarning(_ message: String) -> Bool {
        ["Corrupt JPEG data", "Premature end of JPEG file", "Unknown Adobe color transform",
         "Inconsistent progression sequence", "Warning: unknown JFIF revision", "Invalid SOS parameters for sequential",
         "Application transferred too many scanlines"].contains { message.hasPrefix($0) }
    }

    static func corrupt(_ message: String) -> WebImageError {
        .badImageData(.corrupt(message.isEmpty ? "libjpeg rejected the data" : message))
    }
}
