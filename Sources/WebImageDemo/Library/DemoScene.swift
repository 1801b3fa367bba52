import Foundation
import WebImage

/// The pictures the demo encodes, drawn in memory so it needs no files and no network.
enum DemoScene {
    /// A 640×480 opaque landscape (sky gradient, sun with glow, two ranges of hills, a lake, fine grain) so lossy
    /// codecs have smooth areas, edges and texture to work on.
    static func photo(width: Int = 640, height: Int = 480) -> Image {
        let pixels = PixelBuffer(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let (r, g, b) = landscape(x: x, y: y, width: width, height: height)
                    let grain = Double(noise(x, y) & 0xF) - 7.5
                    let i = (y * width + x) * 4
                    out[i] = clampByte(r + grain)
                    out[i + 1] = clampByte(g + grain)
                    out[i + 2] = clampByte(b + grain)
                    out[i + 3] = 255
                }
            }
        }
        return Image(pixels: pixels, hasAlpha: false)
    }

    /// The photo faded out by a soft oval mask: opaque centre, fully transparent corners.
    static func photoWithAlpha(width: Int = 640, height: Int = 480) -> Image {
        var pixels = photo(width: width, height: height).pixels
        pixels.withUnsafeMutableBytes { out in
            for y in 0..<height {
                for x in 0..<width {
                    let dx = (Double(x) + 0.5) / Double(width) * 2 - 1, dy = (Double(y) + 0.5) / Double(height) * 2 - 1
                    let alpha = min(1, max(0, (1.25 - (dx * dx + dy * dy)) / 0.45))
                    out[(y * width + x) * 4 + 3] = UInt8((alpha * 255).rounded())
                }
            }
        }
        return Image(pixels: pixels, hasAlpha: true)
    }

    /// Twelve 200×150 frames of 80 ms looping forever: a red ball bouncing over four stripes under a transparent
    /// band. Hard edges and six colours, so even GIF's palette holds it without loss.
    static func animation(frameCount: Int = 12, width: Int = 200, height: Int = 150) -> Image {
        let stripes: [(UInt8, UInt8, UInt8)] = [(40, 90, 200), (250, 200, 60), (60, 170, 90), (240, 240, 240)]
        let frames = (0..<frameCount).map { index in
            let t = Double(index) / Double(frameCount)
            let cx = 20 + t * Double(width - 40), cy = Double(height) - 22 - abs(sin(t * .pi * 2)) * Double(height - 70)
            let pixels = PixelBuffer(width: width, height: height) { out in
                for y in 0..<height {
                    for x in 0..<width {
                        let i = (y * width + x) * 4
                        let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                        let (r, g, b, a): (UInt8, UInt8, UInt8, UInt8)
                        if dx * dx + dy * dy <= 18 * 18 {
                            (r, g, b, a) = (220, 30, 40, 255)
                        } else if y < 20 {
                            (r, g, b, a) = (0, 0, 0, 0)
                        } else {
                            let stripe = stripes[(x * stripes.count / width) % stripes.count]
                            (r, g, b, a) = (stripe.0, stripe.1, stripe.2, 255)
                        }
                        out[i] = r; out[i + 1] = g; out[i + 2] = b; out[i + 3] = a
                    }
                }
            }
            return ImageFrame(pixels: pixels, duration: 0.08)
        }
        return Image(frames: frames, loopCount: 0, hasAlpha: true)
    }

    /// The landscape's colour at one pixel, before grain.
    private static func landscape(x: Int, y: Int, width: Int, height: Int) -> (Double, Double, Double) {
        let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
        var color = (90 + 110 * fy, 150 + 75 * fy, 235 - 15 * fy)
        let dx = fx - 0.72, dy = (fy - 0.25) * Double(height) / Double(width)
        let sun = (dx * dx + dy * dy).squareRoot() / 0.07
        if sun < 1 {
            color = (255, 238, 175)
        } else if sun < 2.4 {
            let glow = (2.4 - sun) / 1.4 * 0.6
            color = mix(color, (255, 215, 150), glow)
        }
        let farRidge = 0.55 + 0.06 * sin(fx * 7) + 0.025 * sin(fx * 23 + 1)
        if fy > farRidge { color = mix((95, 135, 110), (60, 95, 70), min(1, (fy - farRidge) * 4)) }
        let nearRidge = 0.7 + 0.05 * sin(fx * 5 + 2) + 0.015 * sin(fx * 41)
        if fy > nearRidge { color = mix((70, 130, 45), (35, 80, 30), min(1, (fy - nearRidge) * 5)) }
        if fy > 0.88 {
            let ripple = 12 * sin(Double(y) * 1.7 + fx * 9)
            color = (40 + ripple, 90 + ripple, 150 + ripple)
        }
        return color
    }

    private static func mix(_ a: (Double, Double, Double), _ b: (Double, Double, Double),
                            _ t: Double) -> (Double, Double, Double) {
        (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }

    /// A cheap deterministic hash of a pixel position, for film-like grain that is the same on every run.
    private static func noise(_ x: Int, _ y: Int) -> UInt32 {
        var h = UInt32(truncatingIfNeeded: x) &* 73_856_093 ^ UInt32(truncatingIfNeeded: y) &* 19_349_663
        h = (h ^ (h >> 13)) &* 1_274_126_177
        return h ^ (h >> 16)
    }

    private static func clampByte(_ value: Double) -> UInt8 {
        UInt8(min(255, max(0, value.rounded())))
    }
}
