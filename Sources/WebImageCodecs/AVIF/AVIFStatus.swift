import CAVIF
import WebImageCore

/// Turns libavif results into typed errors.
enum AVIFStatus {
    /// The decode error for a failed libavif call, with the library's diagnostic when it left one.
    static func decodeError(_ result: avifResult, _ decoder: UnsafeMutablePointer<avifDecoder>?) -> WebImageError {
        switch result {
        case AVIF_RESULT_TRUNCATED_DATA, AVIF_RESULT_WAITING_ON_IO: return .badImageData(.truncated)
        default: return .badImageData(.corrupt("AVIF: \(message(result, decoder.map { diagnostic($0.pointee.diag) }))"))
        }
    }

    /// The encode error for a failed libavif call.
    static func encodeError(_ result: avifResult, _ encoder: UnsafeMutablePointer<avifEncoder>?) -> WebImageError {
        .encodingFailed(format: .avif, reason: message(result, encoder.map { diagnostic($0.pointee.diag) }))
    }

    private static func message(_ result: avifResult, _ detail: String?) -> String {
        let name = String(cString: avifResultToString(result))
        guard let detail, !detail.isEmpty else { return name }
        return "\(name) (\(detail))"
    }

    /// The NUL-terminated text libavif writes into a diagnostics buffer.
    private static func diagnostic(_ diag: avifDiagnostics) -> String {
        withUnsafeBytes(of: diag.error) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
