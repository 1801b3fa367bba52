import Foundation
import TestSupport

/// The corpus files the CLI tests hand to `webimage` most often, as command-line paths.
enum CLITestPaths {
    /// 116×100, 14 frames of 15 cs, NETSCAPE loop count 10, no transparency (checked with giftext).
    static let moonGIF = TestCorpus.path("gif/samples/moon_impact.gif")
    /// 540×330 still, interlaced, no transparency.
    static let interlacedGIF = TestCorpus.path("gif/samples/interlaced.gif")
    /// 128×128 lossy WebP, no alpha, no animation (webpmux -info).
    static let testWebP = TestCorpus.path("webp/test.webp")
    /// PngSuite 32×32 RGBA, 8 bits per sample.
    static let rgbaPNG = TestCorpus.path("pngsuite/png/basn6a08.png")
}
