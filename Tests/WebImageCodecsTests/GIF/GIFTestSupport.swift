import Foundation
import TestSupport
import WebImageCore

/// Helpers shared by the GIF tests.
enum GIFTestSupport {
    /// `Tests/Corpus/gif/<folder>/<name>`.
    static func corpus(_ folder: String, _ name: String) throws -> Data {
        try TestCorpus.data("gif/\(folder)/\(name)")
    }

    /// Every file name in `Tests/Corpus/gif/<folder>`, sorted.
    static func corpusFiles(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: TestCorpus.path("gif/\(folder)")).filter { $0.hasSuffix(".gif") }.sorted()
    }

    /// FNV-1a 64 over 8-bit RGBA with fully transparent pixels counted as (0,0,0,0), the same hash the
    /// reference script computed over Pillow's and ImageMagick's composited frames.
    static func fnv1a(_ pixels: PixelBuffer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        pixels.converted(to: .rgba8).withUnsafeBytes { raw in
            var i = 0
            while i < raw.count {
                let transparent = raw[i + 3] == 0
                for c in 0..<4 {
                    hash ^= UInt64(transparent ? 0 : raw[i + c])
                    hash = hash &* 0x0000_0100_0000_01b3
                }
                i += 4
            }
        }
        return hash
    }

    /// A buffer from one RGBA quadruple per pixel, row by row.
    static func buffer(width: Int, height: Int, _ pixels: [[UInt8]]) -> PixelBuffer {
        PixelBuffer(width: width, height: height, format: .rgba8, bytes: pixels.flatMap { $0 })
    }

    /// Every pixel of a buffer as RGBA quadruples, row by row.
    static func quads(_ pixels: PixelBuffer) -> [[UInt8]] {
        (0..<pixels.height).flatMap { y in (0..<pixels.width).map { x in pixels.rgba8(x: x, y: y) } }
    }

    /// The reason `body` failed with `badImageData`, nil when it succeeded or failed otherwise.
    static func badDataReason(_ body: () throws -> Void) -> BadImageDataReason? {
        do {
            try body()
            return nil
        } catch WebImageError.badImageData(let reason) {
            return reason
        } catch {
            return nil
        }
    }
}
