import CHEIF
import WebImageCore

/// Turns libheif errors into typed errors.
enum HEIFStatus {
    /// Throws the decode error for `error` unless it is `heif_error_Ok`.
    static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        if error.subcode == heif_suberror_End_of_data { throw WebImageError.badImageData(.truncated) }
        throw WebImageError.badImageData(.corrupt("HEIF: \(message(error))"))
    }

    /// Throws the encode error for `error` unless it is `heif_error_Ok`.
    static func checkEncoding(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        throw WebImageError.encodingFailed(format: .heic, reason: message(error))
    }

    private static func message(_ error: heif_error) -> String {
        let text = error.message.map { String(cString: $0) } ?? ""
        return text.isEmpty ? "libheif error \(error.code.rawValue).\(error.subcode.rawValue)" : text
    }
}
