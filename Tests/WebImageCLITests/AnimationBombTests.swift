import Foundation
import Testing
import TestSupport

/// Issue 12, defect 1: small animated files with a large canvas and many frames are refused from their headers
/// by every command, in bounded time and memory measured in the child process, and animations within the
/// limits keep one canvas, not one per frame.
@Suite struct AnimationBombTests {
    /// The bomb of every animated format, written to `dir`.
    private static func write(_ format: String, width: Int, height: Int, frames: Int, to dir: TemporaryDirectory) throws -> String {
        let data: Data
        switch format {
        case "gif": data = AnimationBombs.gif(width: width, height: height, frames: frames)
        case "png": data = AnimationBombs.apng(width: width, height: height, frames: frames)
        default: data = AnimationBombs.webp(width: width, height: height, frames: frames)
        }
        let path = dir.path("bomb-\(width)x\(height)x\(frames).\(format)")
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A refused run: status 1 (no signal), exactly one stderr line, no stdout, quick, and no bigger than the
    /// baseline plus 16 MB.
    private func expectRefused(_ arguments: [String], line: String, baseline: Double,
                               sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await MeasuredRun.run(arguments, timeout: 60)
        #expect(result.signal == nil, "\(arguments) died from signal \(result.signal ?? 0)", sourceLocation: sourceLocation)
        #expect(result.status == 1, "\(arguments)", sourceLocation: sourceLocation)
        #expect(result.stderrLines == [line], "\(arguments)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(result.peakMB < baseline + 16, "\(arguments): peak \(result.peakMB) MB over a \(baseline) MB baseline",
                sourceLocation: sourceLocation)
        #expect(result.seconds < 10, "\(arguments) took \(result.seconds) s", sourceLocation: sourceLocation)
    }

    /// 4000×4000 × 40 one-pixel frames (a 1 KB GIF; 2.5 GB of canvases before the fix, in every command).
    @Test(arguments: ["gif", "png", "webp"])
    func largeCanvasBombIsRefusedByEveryCommand(format: String) async throws {
        let dir = try TemporaryDirectory()
        let bomb = try Self.write(format, width: 4000, height: 4000, frames: 40, to: dir)
        #expect(try Data(contentsOf: URL(fileURLWithPath: bomb)).count < 4096)
        let baseline = try await MeasuredRun.baselineMB()
        let line = "webimage: \(bomb): animation too large: 40 frames × canvas = 640000000 pixels, over the limit of "
            + "250000000 (raise ImageDecodeOptions.maxAnimationPixelCount to decode it)"
        let out = dir.path("out.pam")
        for arguments in [["info", bomb], ["decode", bomb, "-o", out], ["decode", bomb, "-o", out, "--frame", "0"],
                          ["decode", bomb, "-o", out, "--thumbnail", "64x64"],
                          ["convert", bomb, dir.path("out.\(format)"), "--max-pixel-size", "64x64"]] {
            try await expectRefused(arguments, line: line, baseline: baseline)
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// The report's 10000×10000 × 200-frame WebP ran past 60 s with a thumbnail: now refused at once.
    @Test func hugeWebPAnimationEndsAtOnce() async throws {
        let dir = try TemporaryDirectory()
        let bomb = try Self.write("webp", width: 10_000, height: 10_000, frames: 200, to: dir)
        let line = "webimage: \(bomb): animation too large: 200 frames × canvas = 20000000000 pixels, over the limit of "
            + "250000000 (raise ImageDecodeOptions.maxAnimationPixelCount to decode it)"
        try await expectRefused(["decode", bomb, "-o", dir.path("t.pam"), "--thumbnail", "256x256"], line: line,
                                baseline: try await MeasuredRun.baselineMB())
    }

    /// 1,500 frames on a 2×2 canvas: only 6,000 pixels, but over the frame-count limit.
    @Test(arguments: ["gif", "png", "webp"])
    func tooManyFramesAreRefused(format: String) async throws {
        let dir = try TemporaryDirectory()
        let bomb = try Self.write(format, width: 2, height: 2, frames: 1_500, to: dir)
        let line = "webimage: \(bomb): too many frames: the animation has more than 1000 "
            + "(raise ImageDecodeOptions.maxFrameCount to decode it)"
        try await expectRefused(["info", bomb], line: line, baseline: try await MeasuredRun.baselineMB())
    }

    /// Over HTTP the manager's decode refuses it the same way: the record carries code 1001 and the message.
    @Test func fetchRefusesTheBomb() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/bomb.gif", TestResponse(body: AnimationBombs.gif(width: 4000, height: 4000, frames: 40)))
        let baseline = try await MeasuredRun.baselineMB()
        let result = try await MeasuredRun.run(["fetch", server.url("/bomb.gif").absoluteString, "--no-cache", "--json",
                                                "--thumbnail", "64x64"], timeout: 60)
        try await server.shutdown()
        #expect(result.signal == nil && result.status == 1)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let error = try #require(record["error"] as? [String: Any])
        #expect(error["code"] as? Int == 1001)
        #expect(error["message"] as? String == "animation too large: 40 frames × canvas = 640000000 pixels, over the "
            + "limit of 250000000 (raise ImageDecodeOptions.maxAnimationPixelCount to decode it)")
        // The fetch run's own baseline is higher (HTTP client, event loops): the bound is loose, the bomb is 2.5 GB.
        #expect(result.peakMB < baseline + 64, "peak \(result.peakMB) MB over a \(baseline) MB baseline")
    }

    /// Within the limits (1500×1500 × 12 frames, 9 MB a canvas): scaling every frame, or picking the last one,
    /// costs about one canvas (two for libwebp) where keeping every frame took 108 MB.
    @Test(arguments: ["gif", "png", "webp"])
    func animationWithinTheLimitsKeepsOneCanvas(format: String) async throws {
        let dir = try TemporaryDirectory()
        let file = try Self.write(format, width: 1500, height: 1500, frames: 12, to: dir)
        let baseline = try await MeasuredRun.baselineMB()

        let converted = try await MeasuredRun.run(["convert", file, dir.path("small.\(format)"), "--max-pixel-size", "64x64"])
        #expect(converted.status == 0, "stderr: \(converted.stderr)")
        #expect(converted.stdout.hasPrefix("\(dir.path("small.\(format)")): \(format), 64x64, 12 frames"), "\(converted.stdout)")
        #expect(converted.peakMB < baseline + 40, "convert: peak \(converted.peakMB) MB over a \(baseline) MB baseline")

        let picked = try await MeasuredRun.run(["decode", file, "-o", dir.path("last.pam"), "--frame", "11",
                                                "--thumbnail", "64x64"])
        #expect(picked.status == 0, "stderr: \(picked.stderr)")
        #expect(picked.stdout == "\(dir.path("last.pam")): 64x64 frame 11 of 12, 16451 bytes\n")
        #expect(picked.peakMB < baseline + 40, "decode --frame: peak \(picked.peakMB) MB over a \(baseline) MB baseline")
    }
}
