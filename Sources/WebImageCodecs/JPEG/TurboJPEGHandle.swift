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

    /// The instance's last error or warning text.
    var message: String { String(cString: tjGetErrorStr2(raw)) }

    /// Whether the last failed call only warned (the output is complete but the data was damaged).
    var lastFailureWasWarning: Bool { tjGetErrorCode(raw) == Int32(TJERR_WARNING.rawValue) }
}

/// How JPEG warnings and errors become ``WebImageError``s, shared by the one-shot and incremental decoders.
enum JPEGErrors {
    /// libjpeg's texts for data that stops early ("Premature end of JPEG file", "Corrupt JPEG data:
    /// premature end of data segment"): it fills the rest with grey and only warns.
    static func isTruncation(_ message: String) -> Bool {
        message.lowercased().contains("premature end")
    }

    static func corrupt(_ message: String) -> WebImageError {
        .badImageData(.corrupt(message.isEmpty ? "libjpeg rejected the data" : message))
    }
}
