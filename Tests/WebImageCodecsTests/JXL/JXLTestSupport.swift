import Foundation
import TestSupport
import WebImage

/// One line of `Tests/Corpus/jxl/reference.tsv`.
struct JXLReference: Sendable, CustomStringConvertible {
    let file: String
    let width: Int
    let height: Int
    let frames: Int
    let hasAlpha: Bool
    let md5: String
    let isRejected: Bool
    var description: String { file }

    static let all: [JXLReference] = {
        let list = TestCorpus.url("jxl/reference.tsv")
        guard let text = try? String(contentsOf: list, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 12 else { return nil }
            return JXLReference(file: columns[0], width: Int(columns[2]) ?? 0, height: Int(columns[3]) ?? 0,
                                frames: Int(columns[4]) ?? 0, hasAlpha: columns[6] == "1", md5: columns[8],
                                isRejected: columns[11].hasPrefix("rejected"))
        }
    }()

    static var valid: [JXLReference] { all.filter { !$0.isRejected } }
    static var rejected: [JXLReference] { all.filter(\.isRejected) }

    var data: Data {
        get throws { try TestCorpus.data("jxl/\(file)") }
    }
}

enum JXLTestSupport {
    /// The PNG `djxl` (Debian's libjxl-tools, the same libjxl 0.7) writes for `file`.
    static func djxl(_ file: URL) throws -> Data {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("djxl-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = try SpawnedProcess(URL(fileURLWithPath: "/usr/bin/djxl"), [file.path, output.path])
        process.waitUntilExit()
        return try Data(contentsOf: output)
    }

    /// The corpus's canonical form: 8-bit straight RGBA, 16-bit samples reduced to their high byte (as Pillow
    /// reads a 16-bit PNG).
    static func canonicalRGBA8(_ pixels: PixelBuffer) -> Data {
        switch pixels.format {
        case .rgba8:
            return Data(pixels.bytes)
        case .rgba16:
            return pixels.withUnsafeBytes { raw in
                Data(raw.bindMemory(to: UInt16.self).map { UInt8($0 >> 8) })
            }
        }
    }

    /// A smooth test raster with a varying alpha ramp when `alpha` is set.
    static func gradient(width: Int, height: Int, alpha: Bool, seed: Int = 0) -> PixelBuffer {
        PixelBuffer(width: width, height: height, format: .rgba8) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    out[i] = UInt8((x * 255 / max(1, width - 1) + seed) & 0xFF)
                    out[i + 1] = UInt8((y * 255 / max(1, height - 1) + 2 * seed) & 0xFF)
                    out[i + 2] = UInt8(((x + y) * 7 + seed) & 0xFF)
                    out[i + 3] = alpha ? UInt8(64 + (x * 191 / max(1, width - 1))) : 255
                }
            }
        }
    }
}
