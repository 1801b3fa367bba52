import Foundation
import WebImage

/// Reading and decoding an input file, with failures that name it.
enum ImageInput {
    /// `data`, read from `path`, decoded with `CodersManager.shared`; errors become ``CLIFailure``s about `path`.
    static func decode(_ data: Data, from path: String, options: ImageDecodeOptions) throws -> Image {
        do {
            return try CodersManager.shared.decode(data, options: options)
        } catch {
            throw CLIFailure(subject: path, error: error)
        }
    }
}
