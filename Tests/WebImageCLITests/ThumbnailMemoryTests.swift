import Foundation
import Testing
import TestSupport

/// Issue 12, defect 5: a thumbnail of a large still is made while its rows are decoded, so the child's peak
/// memory stays within 64 MB of the baseline however large the source (measured in the child process).
///
/// The sources are 6000×6000 (36 MP, 144 MB as RGBA; before the fix a thumbnail cost at least that): large
/// enough to tell streaming from a full raster, small enough for a debug build. The benchmark's
/// `thumbnail-rss` row measures 100 MP sources in release.
@Suite struct ThumbnailMemoryTests {
    static let side = 6000

    /// `decode FILE --thumbnail 100x100` succeeds with a 100×100 result, within 64 MB of the baseline.
    private func expectBoundedThumbnail(_ data: Data, name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let dir = try TemporaryDirectory()
        let file = dir.path(name)
        try data.write(to: URL(fileURLWithPath: file))
        let baseline = try await MeasuredRun.baselineMB()
        let result = try await MeasuredRun.run(["decode", file, "-o", dir.path("t.pam"), "--thumbnail", "100x100"])
        #expect(result.status == 0, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == "\(dir.path("t.pam")): 100x100 frame 0 of 1, 40069 bytes\n", sourceLocation: sourceLocation)
        #expect(result.peakMB < baseline + 64, "\(name): peak \(result.peakMB) MB over a \(baseline) MB baseline",
                sourceLocation: sourceLocation)
    }

    @Test func png() async throws {
        try await expectBoundedThumbnail(LargeImages.png(width: Self.side, height: Self.side, alpha: true), name: "big.png")
    }

    /// Above 48 MB of raster an interlaced PNG is thumbnailed from its last Adam7 pass, row by row.
    @Test func interlacedPNG() async throws {
        try await expectBoundedThumbnail(LargeImages.png(width: Self.side, height: Self.side, alpha: true, interlaced: true),
                                         name: "big-interlaced.png")
    }

    @Test func gif() async throws {
        try await expectBoundedThumbnail(LargeImages.gif(width: Self.side, height: Self.side), name: "big.gif")
    }

    /// An interlaced GIF keeps its even rows as palette indices (18 MB here) until pass 4 reaches them.
    @Test func interlacedGIF() async throws {
        try await expectBoundedThumbnail(LargeImages.gif(width: Self.side, height: Self.side, interlaced: true),
                                         name: "big-interlaced.gif")
    }

    /// Lossy WebP without alpha is scaled by libwebp while it decodes (made here by the CLI from an opaque PNG).
    @Test func webp() async throws {
        let dir = try TemporaryDirectory()
        let png = dir.path("opaque.png"), webp = dir.path("big.webp")
        try LargeImages.png(width: Self.side, height: Self.side, alpha: false).write(to: URL(fileURLWithPath: png))
        let made = try await MeasuredRun.run(["convert", png, webp, "--quality", "0.5"])
        #expect(made.status == 0, "stderr: \(made.stderr)")
        try await expectBoundedThumbnail(try Data(contentsOf: URL(fileURLWithPath: webp)), name: "big.webp")
    }
}
