import Foundation
import WebImageCore

/// The progressive decoder of a format whose library decodes only complete files (libavif's and libheif's
/// one-shot readers): while bytes arrive it shows nothing, and the final call decodes the whole file, exactly
/// as the coder's one-shot decode does.
///
/// It lets a progressive download of such a format take the same path as any other: no partial images, then
/// the final image (or its typed error).
final class WholeFileProgressiveDecoder: ProgressiveImageDecoder {
    private let decode: (Data) throws -> Image

    /// `decode` is the coder's one-shot decode with the download's options.
    init(decode: @escaping (Data) throws -> Image) {
        self.decode = decode
    }

    func decode(_ data: Data, isFinished: Bool) throws -> Image? {
        isFinished ? try decode(data) : nil
    }
}
