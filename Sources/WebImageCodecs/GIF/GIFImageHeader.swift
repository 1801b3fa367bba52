import Foundation
import WebImageCore

/// A GIF's header: the logical screen, and the frame records walked without their pixels (a GIF announces no
/// frame count), counted and judged for transparency as decoding does, in constant memory.
enum GIFImageHeader {
    static func read(_ data: Data) throws -> ImageHeader {
        guard !data.isEmpty else { throw WebImageError.badImageData(.empty) }
        return try data.withUnsafeBytes { raw in
            try GIFReader.read(raw) { reader in
                var alpha = GIFAlphaTracker(screen: reader.screen)
                var frameCount = 0
                try reader.forEachFrame { header in
                    try reader.skipPixels()
                    alpha.add(header)
                    frameCount += 1
                    return true
                }
                guard frameCount > 0 else { throw WebImageError.badImageData(.corrupt("the GIF contains no image")) }
                return ImageHeader(format: .gif, pixelSize: reader.screen, frameCount: frameCount,
                                   hasAlpha: alpha.hasAlpha(frameCount: frameCount))
            }
        }
    }
}
