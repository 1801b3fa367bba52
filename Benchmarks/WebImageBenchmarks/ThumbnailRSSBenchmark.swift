import Foundation
import TestSupport
import WebImage

/// Peak memory of a 256×256 thumbnail (what `webimage decode FILE --thumbnail 256x256` does) of a 100 MP PNG,
/// a 100 MP WebP and a large-canvas animated GIF, beside decoding the same file at full size; interlaced
/// 100 MP PNG and GIF rows show the two stills that cannot stream whole rows. Every figure is one child
/// process's peak RSS growth; each is run three times and every run is printed.
///
/// The PNGs and the GIF are opaque black (10000×10000, a few hundred KB each); the WebP is a lossy opaque
/// gradient of the same size, encoded once and kept in the temporary directory; the animated GIF is a
/// 4000×4000 canvas with 15 one-pixel frames (240 MP to composite, inside the default animation limit).
enum ThumbnailRSSBenchmark {
    static let childModes: Set<String> = ["thumbnail", "all-frames-thumbnail", "full"]
    static let thumbnail = PixelSize(width: 256, height: 256)
    static let runs = 3

    static func run() throws {
        let directory = FileManager.default.temporaryDirectory
        let png = directory.appendingPathComponent("webimage-bench-100mp.png")
        try LargeImages.png(width: 10_000, height: 10_000, alpha: false).write(to: png)
        let interlacedPNG = directory.appendingPathComponent("webimage-bench-100mp-interlaced.png")
        try LargeImages.png(width: 10_000, height: 10_000, alpha: false, interlaced: true).write(to: interlacedPNG)
        let interlacedGIF = directory.appendingPathComponent("webimage-bench-100mp-interlaced.gif")
        try LargeImages.gif(width: 10_000, height: 10_000, interlaced: true).write(to: interlacedGIF)
        let gif = directory.appendingPathComponent("webimage-bench-4000x4000x15.gif")
        try AnimationBombs.gif(width: 4000, height: 4000, frames: 15).write(to: gif)
        let webp = try makeWebP(directory.appendingPathComponent("webimage-bench-100mp.webp"))
        defer {
            for file in [png, interlacedPNG, interlacedGIF, gif] { try? FileManager.default.removeItem(at: file) }
        }
        print("peak RSS growth in a child process, MB (seconds), \(runs) runs each; target for stills: ≤ 64 MB")
        let stills = ["thumbnail", "full"]
        for (name, file, modes) in [("100 MP PNG (10000×10000)", png, stills),
                                    ("100 MP WebP (10000×10000, lossy)", webp, stills),
                                    ("100 MP PNG, interlaced (last Adam7 pass)", interlacedPNG, stills),
                                    ("100 MP GIF, interlaced (even rows kept as indices)", interlacedGIF, stills),
                                    ("GIF 4000×4000 × 15 frames", gif, ["thumbnail", "all-frames-thumbnail", "full"])] {
            print(name)
            for mode in modes {
                let samples = try (0..<runs).map { _ in try ChildMeasure.run(mode, file) }
                let figures = samples.map { String(format: "%7.1f (%.2f s)", $0.growthMB, $0.seconds) }
                print("  \(label(mode).padding(toLength: 52, withPad: " ", startingAt: 0))" + figures.joined(separator: "  "))
            }
        }
    }

    /// Runs in the child: one decode of `path` as `mode` says.
    static func runChild(mode: String, path: String) throws {
        try ChildMeasure.reportGrowth(path: path) { data in
            switch mode {
            case "thumbnail":
                // As `webimage decode --thumbnail`: frame 0 through the frame-by-frame decoder when there is one.
                let options = ImageDecodeOptions(thumbnailPixelSize: thumbnail)
                if let decoder = try CodersManager.shared.animatedDecoder(for: data, options: options) {
                    _ = try decoder.frame(at: 0)
                } else {
                    _ = try CodersManager.shared.decode(data, options: options)
                }
            case "all-frames-thumbnail":
                _ = try CodersManager.shared.decode(data, options: ImageDecodeOptions(thumbnailPixelSize: thumbnail))
            default:
                _ = try CodersManager.shared.decode(data, options: ImageDecodeOptions())
            }
        }
    }

    private static func label(_ mode: String) -> String {
        switch mode {
        case "thumbnail": "decode --thumbnail 256x256 (frame 0)"
        case "all-frames-thumbnail": "every frame at 256x256 (as convert --max-pixel-size)"
        default: "full decode (every frame, full size)"
        }
    }

    /// A lossy, opaque 10000×10000 WebP of a smooth gradient, encoded on the first run only.
    private static func makeWebP(_ file: URL) throws -> URL {
        if FileManager.default.fileExists(atPath: file.path) { return file }
        let side = 10_000
        let pixels = PixelBuffer(width: side, height: side) { out in
            for y in 0..<side {
                for x in 0..<side {
                    let o = (y * side + x) * 4
                    out[o] = UInt8(x * 255 / side)
                    out[o + 1] = UInt8(y * 255 / side)
                    out[o + 2] = UInt8((x + y) % 256)
                    out[o + 3] = 255
                }
            }
        }
        let data = try CodersManager.shared.encode(Image(pixels: pixels, hasAlpha: false), as: .webp,
                                                   options: ImageEncodeOptions(quality: 0.75))
        try data.write(to: file)
        return file
    }
}
