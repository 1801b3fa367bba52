import WebImage

/// Reading and decoding an input file, with failures that name it.
enum ImageInput {
    /// The file decoded with `CodersManager.shared`; read and decode errors become ``CLIFailure``s about `path`.
    static func decode(_ path: String, options: ImageDecodeOptions) throws -> Image {
        let data = try FileIO.read(path)
        do {
            return try CodersManager.shared.decode(data, options: options)
        } catch {
            throw CLIFailure(subject: path, error: error)
        }
    }
}
