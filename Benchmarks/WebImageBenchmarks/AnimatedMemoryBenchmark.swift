import Foundation
import WebImage

/// Peak memory of playing a 500-frame 400×400 GIF through ``AnimatedImagePlayer`` with a 10-frame buffer,
/// beside decoding every frame at once. Each side runs in its own child process so one's peak cannot hide
/// the other's.
enum AnimatedMemoryBenchmark {
    static let frameCount = 500
    static let side = 400

    static func run() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-bench-500-frames.gif")
        try makeAnimation().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let player = try ChildMeasure.run("player", file).growthMB
        let full = try ChildMeasure.run("full", file).growthMB
        print(String(format: "500×400×400 GIF, peak RSS growth: player (10-frame buffer) %.1f MB, full decode %.1f MB, saved %.1f MB",
                     player, full, full - player))
    }

    /// Runs in the child: `--child player|full FILE`; prints the peak RSS growth in MB.
    static func runChild(mode: String, path: String) throws {
        try ChildMeasure.reportGrowth(path: path) { data in
            switch mode {
            case "player":
                let animation = try AnimatedImage(data: data)
                let clock = ManualAnimationClock()
                guard let player = AnimatedImagePlayer(provider: animation, clock: clock) else { return }
                player.maxBufferSize = animation.bytesPerFrame * 10
                player.startPlaying()
                for index in 0..<animation.frameCount { clock.advance(by: animation.frameDuration(at: index)) }
            default:
                let image = try CodersManager.shared.decode(data, options: ImageDecodeOptions())
                precondition(image.frameCount == frameCount, "decoded \(image.frameCount) frames")
            }
        }
    }

    /// A moving gradient square on a flat background: few colours, so the GIF encodes quickly and exactly.
    private static func makeAnimation() throws -> Data {
        let frames = (0..<frameCount).map { index in
            ImageFrame(pixels: PixelBuffer(width: side, height: side) { out in
                for y in 0..<side {
                    for x in 0..<side {
                        let inside = abs(x - (index * 7) % side) < 40 && abs(y - side / 2) < 40
                        let o = (y * side + x) * 4
                        out[o] = inside ? UInt8(index % 200) : 30
                        out[o + 1] = inside ? 200 : 60
                        out[o + 2] = inside ? 40 : 90
                        out[o + 3] = 255
                    }
                }
            }, duration: 0.04)
        }
        let image = Image(frames: frames, format: .gif, hasAlpha: false)
        return try CodersManager.shared.encode(image, as: .gif, options: ImageEncodeOptions())
    }
}
