import Foundation
import TestSupport
import WebImage

/// Issue 14's cache-store cost: the CPU time to encode a 256×256 thumbnail for the disk cache per format, at
/// ``ImageEncodeEffort/fastest`` (what the cache stores use) beside ``ImageEncodeEffort/balanced`` (the
/// explicit-encode default), with both outputs' sizes. Quality is the stores' default 1 except in one lossy
/// WebP row at 0.8, which shows what a lower store quality buys. Each figure is the median thread CPU time
/// over interleaved rounds. Two inputs: a detailed real photo (the centre of the corpus's `bryce.webp`) and a
/// drawn graphic (gradients, shapes, flat areas).
enum StoreEncodeBenchmark {
    static let target = 0.002

    static func run() throws {
        try runInput("photo", photoThumbnail())
        try runInput("graphic", graphic())
    }

    private static func runInput(_ input: String, _ pixels: PixelBuffer) throws {
        let opaque = Image(pixels: pixels, hasAlpha: false)
        let alpha = Image(pixels: vignetted(pixels), hasAlpha: true)
        let animated = Image(frames: (0..<4).map { ImageFrame(pixels: withMovingBox(pixels, step: $0), duration: 0.1) })
        let cases: [(String, Image, ImageFormat, ImageEncodeOptions)] = [
            ("JPEG", opaque, .jpeg, ImageEncodeOptions()),
            ("PNG", opaque, .png, ImageEncodeOptions()),
            ("PNG with alpha", alpha, .png, ImageEncodeOptions()),
            ("WebP lossy", opaque, .webp, ImageEncodeOptions()),
            ("WebP lossy with alpha", alpha, .webp, ImageEncodeOptions()),
            // Lossy WebP's cost follows the bits it codes: what a lower store quality buys.
            ("WebP lossy, quality 0.8", opaque, .webp, ImageEncodeOptions(quality: 0.8)),
            ("WebP lossless", opaque, .webp, ImageEncodeOptions(lossless: true)),
            ("GIF", opaque, .gif, ImageEncodeOptions()),
            ("GIF animated, 4 frames", animated, .gif, ImageEncodeOptions()),
        ]
        let coders = CodersManager.shared
        for (name, image, format, options) in cases {
            var fast = options, balanced = options
            fast.effort = .fastest
            balanced.effort = .balanced
            let fastSize = try coders.encode(image, as: format, options: fast).count
            let balancedSize = try coders.encode(image, as: format, options: balanced).count
            let rounds = format == .webp && options.lossless ? 7 : 31
            let (fastCPU, balancedCPU) = try Measure.pairedMedians(rounds: rounds,
                { _ = try coders.encode(image, as: format, options: fast) },
                { _ = try coders.encode(image, as: format, options: balanced) })
            let label = "\(input) \(name)".padding(toLength: 36, withPad: " ", startingAt: 0)
            let layout = " fastest %7.3f ms %7.1f KB   balanced %8.3f ms %7.1f KB   %5.1f× faster   %@"
            print(label + String(format: layout, fastCPU * 1e3, Double(fastSize) / 1024, balancedCPU * 1e3,
                                 Double(balancedSize) / 1024, balancedCPU / fastCPU,
                                 fastCPU <= target ? "≤ 2 ms met" : "≤ 2 ms NOT MET"))
        }
    }

    /// A 256×256 square from the middle of a real, detailed landscape photo (the corpus's panorama).
    private static func photoThumbnail() throws -> PixelBuffer {
        let data = try TestCorpus.data("webp/bryce.webp")
        let strip = try CodersManager.shared.decode(data, options: ImageDecodeOptions(
            thumbnailPixelSize: PixelSize(width: 1 << 20, height: 512))).pixels.converted(to: .rgba8)
        let side = strip.height, left = (strip.width - side) / 2
        let square = PixelBuffer(width: side, height: side) { out in
            strip.withUnsafeBytes { source in
                for y in 0..<side {
                    let from = (y * strip.width + left) * 4
                    for i in 0..<side * 4 { out[y * side * 4 + i] = source[from + i] }
                }
            }
        }
        return Resampler.resample(square, to: PixelSize(width: 256, height: 256))
    }

    /// A drawn 256×256 graphic: a diagonal gradient, flat discs and stripes, as a logo or UI image has.
    private static func graphic() -> PixelBuffer {
        PixelBuffer(width: 256, height: 256) { out in
            for y in 0..<256 {
                for x in 0..<256 {
                    let i = (y * 256 + x) * 4
                    var colour = (UInt8(x), UInt8(y), UInt8(255 - (x + y) / 2))
                    let (dx, dy) = (x - 96, y - 110)
                    if dx * dx + dy * dy < 60 * 60 { colour = (220, 40, 60) }
                    let (ex, ey) = (x - 180, y - 170)
                    if ex * ex + ey * ey < 50 * 50 { colour = ((x + y) / 8 % 2 == 0) ? (250, 250, 250) : (30, 30, 30) }
                    if y > 20, y < 44, x > 20, x < 236, (x / 6) % 3 != 0 { colour = (0, 0, 0) }
                    (out[i], out[i + 1], out[i + 2], out[i + 3]) = (colour.0, colour.1, colour.2, 255)
                }
            }
        }
    }

    /// The raster with alpha falling from opaque in the middle to clear in the corners (a cut-out).
    private static func vignetted(_ pixels: PixelBuffer) -> PixelBuffer {
        PixelBuffer(width: pixels.width, height: pixels.height) { out in
            pixels.withUnsafeBytes { source in
                for y in 0..<pixels.height {
                    for x in 0..<pixels.width {
                        let i = (y * pixels.width + x) * 4
                        let (dx, dy) = (Double(x - pixels.width / 2), Double(y - pixels.height / 2))
                        let fade = max(0, min(1, 1.6 - (dx * dx + dy * dy).squareRoot() / Double(pixels.width / 2)))
                        for c in 0..<3 { out[i + c] = source[i + c] }
                        out[i + 3] = UInt8(fade * 255)
                    }
                }
            }
        }
    }

    /// The raster with a 48-pixel white box at a position that moves with `step` (an animation's changes).
    private static func withMovingBox(_ pixels: PixelBuffer, step: Int) -> PixelBuffer {
        var frame = pixels
        let width = pixels.width
        frame.withUnsafeMutableBytes { out in
            for y in 100..<148 {
                for x in (40 + step * 40)..<(88 + step * 40) {
                    for c in 0..<4 { out[(y * width + x) * 4 + c] = 255 }
                }
            }
        }
        return frame
    }
}
