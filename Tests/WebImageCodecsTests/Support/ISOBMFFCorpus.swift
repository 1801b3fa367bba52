import Foundation
import TestSupport
import WebImage

/// One line of `avif/reference.tsv` or `heif/reference.tsv` in `Tests/Corpus` (see its README).
struct ISOBMFFReference: Sendable, CustomStringConvertible {
    let folder: String
    let file: String
    let width: Int
    let height: Int
    let frames: Int
    let bitDepth: Int
    let hasAlpha: Bool
    /// The primary item's transforms in `ipma` order (`clap:WxH@X,Y`, `irot:N`, `imir:M`).
    let transforms: [String]
    let md5: String
    /// `ok`, `ok (note)` or `rejected: message`.
    let result: String

    var description: String { "\(folder)/\(file)" }
    var isRejected: Bool { result.hasPrefix("rejected") }
    var url: URL { TestCorpus.url("\(folder)/\(file)") }
    func data() throws -> Data { try TestPaths.data(url) }

    /// Every line of `folder/reference.tsv`.
    static func all(in folder: String) -> [ISOBMFFReference] {
        let list = TestCorpus.url("\(folder)/reference.tsv")
        guard let text = try? String(contentsOf: list, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return ISOBMFFReference(folder: folder, file: f[0], width: Int(f[2]) ?? 0, height: Int(f[3]) ?? 0,
                                    frames: Int(f[4]) ?? 0, bitDepth: Int(f[5]) ?? 0, hasAlpha: f[6] == "1",
                                    transforms: f[7] == "none" || f[7].isEmpty ? [] : f[7].split(separator: ";").map(String.init),
                                    md5: f[8], result: f[11])
        }
    }
}

/// The straight 8-bit RGBA bytes the corpus's `rgba8_md5` is taken over: the first frame, 16-bit samples rounded.
func canonicalRGBA8(_ image: Image) -> Data {
    Data(image.pixels.converted(to: .rgba8).bytes)
}

/// The largest difference in any channel between two rasters of the same size, as 8-bit RGBA.
func maxChannelDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    let x = a.converted(to: .rgba8).bytes, y = b.converted(to: .rgba8).bytes
    precondition(x.count == y.count, "rasters differ in size")
    return zip(x, y).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
}

/// The Debian reference decoders the corpus README names, run on a file: their PNG output decoded by our PNG
/// coder.
enum ReferenceDecoder {
    /// `avifdec -d 8 --no-strict FILE out.png` (libavif 0.11 with dav1d): the coded image, transforms not
    /// applied. Not strict, like ``AVIFCoder`` for files without `pixi` (the pixels are the same).
    static func avifdec(_ file: URL) throws -> PixelBuffer {
        try run("/usr/bin/avifdec", ["-d", "8", "--no-strict", file.path])
    }

    /// `heif-convert FILE out.png` (libheif 1.15): the primary image, transforms applied.
    static func heifConvert(_ file: URL) throws -> PixelBuffer {
        try run("/usr/bin/heif-convert", [file.path])
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> PixelBuffer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ref-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.png")
        let process = try SpawnedProcess(URL(fileURLWithPath: tool), arguments + [output.path])
        process.waitUntilExit()
        guard process.termination == .exited(0) else {
            throw ReferenceDecoderFailure(tool: tool, status: process.terminationStatus)
        }
        return try PNGCoder().decode(try Data(contentsOf: output), options: .init()).pixels
    }
}

struct ReferenceDecoderFailure: Error {
    let tool: String
    let status: Int32
}
/// `pixels` with the corpus's transform strings applied in order (`clap:WxH@X,Y`, `irot:N` = N × 90°
/// anticlockwise, `imir:0` = top and bottom swapped, `imir:1` = left and right swapped): how the README turns
/// `avifdec`'s coded output into the displayed image.
func applyingCorpusTransforms(_ transforms: [String], to pixels: PixelBuffer) -> PixelBuffer {
    var result = pixels
    for transform in transforms {
        let parts = transform.split(separator: ":")
        let value = String(parts[1])
        switch parts[0] {
        case "clap":
            let numbers = value.split(whereSeparator: { "x@,".contains($0) }).compactMap { Int($0) }
            result = crop(result, width: numbers[0], height: numbers[1], x: numbers[2], y: numbers[3])
        case "irot":
            for _ in 0..<(Int(value) ?? 0) { result = result.applying(.left) }
        default:
            result = result.applying(value == "0" ? .downMirrored : .upMirrored)
        }
    }
    return result
}

private func crop(_ pixels: PixelBuffer, width: Int, height: Int, x: Int, y: Int) -> PixelBuffer {
    let bpp = pixels.format.bytesPerPixel
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * bpp)
    for row in y..<y + height {
        let start = (row * pixels.width + x) * bpp
        bytes += pixels.bytes[start..<start + width * bpp]
    }
    return PixelBuffer(width: width, height: height, format: pixels.format, bytes: bytes)
}
