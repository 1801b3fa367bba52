import CTIFF
import Foundation
import WebImageCore

/// What libtiff reported on one handle: its per-handle handlers (libtiff 4.5's `TIFFOpenOptions`) land here
/// instead of printing to stderr, so a failed call becomes a typed error carrying libtiff's own words.
final class TIFFErrorLog {
    /// Errors since the last ``reset()``, oldest first (at most ``maxKept``).
    private(set) var errors: [String] = []
    private static let maxKept = 8

    func reset() { errors.removeAll(keepingCapacity: true) }

    fileprivate func record(_ message: String) {
        if errors.count < Self.maxKept { errors.append(message) }
    }

    /// The error for a libtiff call that failed: `.truncated` when libtiff ran out of bytes, else `.corrupt`
    /// with its first message (or `fallback` when it said nothing).
    func failure(_ fallback: String) -> WebImageError {
        let message = errors.first ?? fallback
        let ranOut = errors.contains { text in
            Self.truncationWords.contains { text.localizedCaseInsensitiveContains($0) }
        }
        return WebImageError.badImageData(ranOut ? .truncated : .corrupt(message))
    }

    /// Phrases libtiff uses when a strip, tile or directory lies past the end of the bytes.
    private static let truncationWords = ["Read error", "Cannot read", "end of file", "Premature EOF", "Not enough data",
                                          "beyond end", "past end", "Seek error"]

    /// Open options sending errors here, warnings nowhere, and refusing any single allocation over `limit`.
    /// The caller frees them (`TIFFOpenOptionsFree`) once the handle is open, and keeps the log alive as long
    /// as the handle.
    func openOptions(maxSingleAllocation limit: Int) -> OpaquePointer {
        let options = TIFFOpenOptionsAlloc()!
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, Int64(limit))
        let context = Unmanaged.passUnretained(self).toOpaque()
        TIFFOpenOptionsSetErrorHandlerExtR(options, Self.errorHandler, context)
        TIFFOpenOptionsSetWarningHandlerExtR(options, Self.warningHandler, nil)
        return options
    }

    /// Formats the message and records it; returning 1 tells libtiff not to call the global handler too.
    private static let errorHandler: TIFFErrorHandlerExtR = { _, context, _, format, arguments in
        guard let context, let format, let arguments else { return 1 }
        var text = [CChar](repeating: 0, count: 512)
        _ = vsnprintf(&text, text.count, format, arguments)
        let message = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        Unmanaged<TIFFErrorLog>.fromOpaque(context).takeUnretainedValue().record(message)
        return 1
    }

    private static let warningHandler: TIFFErrorHandlerExtR = { _, _, _, _, _ in 1 }
}
