import Foundation
import WebImage

extension ImageInput {
    /// Frame `index` of `data` (read from `path`) as a still image, and how many frames the image has.
    ///
    /// An animation goes through its coder's frame-by-frame decoder: frames are composited on one canvas up
    /// to `index` and only that frame is kept (scaled as the options ask), so a large animation costs one
    /// canvas, not one per frame. A still image (or a format without a frame decoder) is decoded as usual.
    /// Errors become ``CLIFailure``s about `path`.
    static func frame(_ index: Int, of data: Data, from path: String,
                      options: ImageDecodeOptions) throws -> (image: Image, frameCount: Int) {
        do {
            guard let decoder = try CodersManager.shared.animatedDecoder(for: data, options: options) else {
                let image = try CodersManager.shared.decode(data, options: options)
                try check(index, count: image.frameCount)
                return (image.with(frames: [ImageFrame(pixels: image.frames[index].pixels)]), image.frameCount)
            }
            try check(index, count: decoder.frameCount)
            var pixels = try decoder.frame(at: index)
            var orientation = decoder.orientation
            if options.applyOrientation {
                pixels = pixels.applying(orientation)
                orientation = .up
            }
            let image = Image(frames: [ImageFrame(pixels: pixels)], scale: options.resolvedScale, orientation: orientation,
                              loopCount: decoder.loopCount, format: decoder.format, hasAlpha: decoder.hasAlpha)
            return (image, decoder.frameCount)
        } catch {
            throw CLIFailure(subject: path, error: error)
        }
    }

    /// What `info` reports about `data` (read from `path`).
    ///
    /// An image a frame-by-frame decoder reads is described from that decoder, which reads the headers of an
    /// animation and decodes none of its frames; anything else is decoded. Errors become ``CLIFailure``s
    /// about `path`.
    static func summary(of data: Data, from path: String) throws -> ImageSummary {
        do {
            let header = try CodersManager.shared.header(for: data)
            // Described only when a decode with the default options would be allowed: a bomb is refused as such.
            try ImageDecodeOptions().checkPixelCount(width: header.codedSize.width, height: header.codedSize.height)
            if header.isAnimated, let decoder = try CodersManager.shared.animatedDecoder(for: data, options: ImageDecodeOptions()) {
                return ImageSummary(decoder)
            }
            return ImageSummary(header)
        } catch {
            throw CLIFailure(subject: path, error: error)
        }
    }

    private static func check(_ index: Int, count: Int) throws {
        guard index < count else { throw WebImageError.badImageData(.frameOutOfRange(index: index, count: count)) }
    }
}
