import Foundation

/// A list of URLs in a file (`fetch --from`, `prefetch --from`): one per line, `-` for standard input, blank
/// lines and lines starting with `#` skipped, read up to ``FileIO/defaultInputLimit``.
///
/// Long lists belong in a file: the argument parser's cost grows with the square of the number of
/// arguments (10,000 URL arguments take seconds to parse).
enum URLList {
    static func read(_ path: String) throws -> [String] {
        let data = path == "-" ? try FileIO.readStandardInput(limit: FileIO.defaultInputLimit)
                               : try FileIO.read(path, limit: FileIO.defaultInputLimit)
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
