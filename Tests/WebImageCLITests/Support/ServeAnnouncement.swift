import Foundation

/// What `webimage serve` prints on standard output once it accepts connections: `listening on http://HOST:PORT`
/// and, with `--metrics-bind`, `metrics on http://HOST:PORT`, in either order.
struct ServeAnnouncement {
    var port: Int
    var metricsPort: Int?
    /// The lines read, and what came after the last of them in the same reads.
    var lines: [String]
    var rest: Data

    struct Missing: Error, CustomStringConvertible {
        var printed: String
        var description: String { "serve did not announce its ports; it printed '\(printed)'" }
    }

    /// Reads `handle` until the image line (and with `metrics` the metrics line) has come or the output ends; on a
    /// dispatch thread, not the cooperative pool.
    static func read(_ handle: FileHandle, metrics: Bool = false) async throws -> ServeAnnouncement {
        let (lines, rest) = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var data = Data(), lines: [String] = []
                while !(lines.contains { $0.hasPrefix("listening on ") }
                        && (!metrics || lines.contains { $0.hasPrefix("metrics on ") })) {
                    if let end = data.firstIndex(of: UInt8(ascii: "\n")) {
                        lines.append(String(decoding: data[..<end], as: UTF8.self))
                        data = Data(data[data.index(after: end)...])
                        continue
                    }
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    data.append(chunk)
                }
                continuation.resume(returning: (lines, data))
            }
        }
        func port(_ prefix: String) -> Int? {
            lines.first { $0.hasPrefix(prefix) }.flatMap { Int($0.split(separator: ":").last ?? "") }
        }
        guard let image = port("listening on http://"), !metrics || port("metrics on http://") != nil else {
            throw Missing(printed: (lines + [String(decoding: rest, as: UTF8.self)]).joined(separator: "\n"))
        }
        return ServeAnnouncement(port: image, metricsPort: port("metrics on http://"), lines: lines, rest: rest)
    }
}
