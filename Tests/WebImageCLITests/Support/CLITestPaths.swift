import Foundation

/// Where the CLI tests find their data: the shared conformance corpora beside the project.
enum CLITestPaths {
    /// The project root (three levels above this file).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared/corpus` relative to the project root.
    static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// The path of a corpus file (`gif/samples/moon_impact.gif`).
    static func corpus(_ relative: String) -> String { corpus.appendingPathComponent(relative).path }

    /// 116×100, 14 frames of 15 cs, NETSCAPE loop count 10, no transparency (checked with giftext).
    static let moonGIF = corpus("gif/samples/moon_impact.gif")
    /// 540×330 still, interlaced, no transparency.
    static let interlacedGIF = corpus("gif/samples/interlaced.gif")
    /// 128×128 lossy WebP, no alpha, no animation (webpmux -info).
    static let testWebP = corpus("webp/test.webp")
    /// PngSuite 32×32 RGBA, 8 bits per sample.
    static let rgbaPNG = corpus("pngsuite/png/basn6a08.png")
}
