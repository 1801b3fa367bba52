import Foundation
import WebImage

/// Reading and decoding an input file, with failures that name it.
enum ImageInput {
    /// The file, read within `limit`, decoded with `CodersManager.shared`; read and decode errors become
    /// ``CLIFailure``s about `path`.
    static func decode(_ path: String, limit: InputLimit, options: ImageDecodeOptions) throws -> Image {
        try decode(try limit.read(path), from: path, options: options)
    }

    /// `data`, read from `path`, decoded with `CodersManager.shared`; errors become ``CLIFailure``s about `path`.
    static func decode(_ data: Data, from path: String, options: ImageDecodeOptions) throws -> Image {
        do {
            return try CodersManager.shared.decode(data, options: options)
        } catch {
            throw CLIFailure(subject: path, error: error)
        }
    }
}
