import Foundation
import WebImageCore

/// Turns an ``Image`` into GIF bytes: 8-bit frames, resized per the options, quantised, laid out by
/// ``GIFFrameOptimizer`` when animated, written by ``GIFWriter``.
enum GIFEncoder {
    static func encode(_ image: Image, options: ImageEncodeOptions) throws -> Data {
        let source = options.frames(of: image)
        let size = source[0].pixels.size
        guard size.width <= 0xFFFF, size.height <= 0xFFFF else {
            throw WebImageError.encodingFailed(format: .gif, reason: "GIF is limited to 65535×65535 pixels; \(size) is larger")
        }
        let isAnimated = source.count > 1
        let rasters = source.map { $0.pixels.converted(to: .rgba8) }
        let indexed = GIFColorQuantizer.quantize(rasters, effort: options.resolvedEffort)
        let frames = isAnimated
            ? GIFFrameOptimizer.records(for: indexed, size: size, delays: source.map { centiseconds($0.duration) })
            : [GIFWriterFrame(width: size.width, height: size.height, colors: indexed[0].colors,
                              indices: indexed[0].indices, transparentIndex: indexed[0].transparentIndex)]
        return try GIFWriter.write(screen: size, loopCount: isAnimated ? options.loopCount ?? image.loopCount : nil,
                                   frames: frames)
    }

    /// A duration in seconds as the GCE's hundredths, rounded to nearest.
    static func centiseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min((seconds * 100).rounded(), 65535))
    }
}
