import Foundation
import WebImage

/// Images made in memory and encoded with the library's coders, so tests need no files.
enum Fixtures {
    /// A `width × height` gradient (opaque unless `alpha`).
    static func pixels(_ width: Int, _ height: Int, alpha: Bool = false, seed: Int = 0) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { out in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    out[i] = UInt8((x * 255 / max(1, width - 1) + seed * 40) & 0xFF)
                    out[i + 1] = UInt8(y * 255 / max(1, height - 1))
                    out[i + 2] = UInt8((x + y + seed * 17) & 0xFF)
                    out[i + 3] = alpha && x < width / 2 ? 0 : 255
                }
            }
        }
    }

    /// Pseudo-random pixels, which no format compresses much.
    static func noise(_ width: Int, _ height: Int) -> PixelBuffer {
        var state: UInt32 = 2_463_534_242
        return PixelBuffer(width: width, height: height) { out in
            for i in 0..<out.count {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                out[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state)
            }
        }
    }

    static func jpeg(_ width: Int, _ height: Int) throws -> Data {
        try encode(Image(pixels: pixels(width, height)), .jpeg)
    }

    static func png(_ width: Int, _ height: Int, alpha: Bool = false) throws -> Data {
        try encode(Image(pixels: pixels(width, height, alpha: alpha)), .png)
    }

    /// An animated GIF of `frames` distinct frames, 0.1 s each, looping forever.
    static func animatedGIF(_ width: Int, _ height: Int, frames: Int = 3) throws -> Data {
        let image = Image(frames: (0..<frames).map { ImageFrame(pixels: pixels(width, height, seed: $0), duration: 0.1) })
        return try encode(image, .gif)
    }

    /// A `width × height` gradient as AVIF, HEIC or JPEG XL (or any format the library writes).
    static func still(_ format: ImageFormat, _ width: Int, _ height: Int, alpha: Bool = false) throws -> Data {
        try encode(Image(pixels: pixels(width, height, alpha: alpha)), format)
    }

    static func encode(_ image: Image, _ format: ImageFormat) throws -> Data {
        try CodersManager.shared.encode(image, as: format, options: ImageEncodeOptions(quality: 0.9))
    }
}
