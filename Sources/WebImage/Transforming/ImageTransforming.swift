import Foundation

/// Turns one image into another after decoding (SDWebImage's `SDImageTransformer`).
///
/// The manager appends ``transformerKey`` to the cache key, so a transformed image is cached apart from its
/// original and found again without redoing the work.
public protocol ImageTransforming: Sendable {
    /// Identifies the transformation and its parameters in cache keys (SDWebImage's exact format for the
    /// built-in ones, so keys match across platforms).
    var transformerKey: String { get }
    /// The transformed image, or nil when the transformation cannot apply (the caller keeps the original).
    func transform(_ image: Image, forKey key: String) -> Image?
}

/// The built-in transformers; each works frame by frame, in premultiplied alpha.
public enum ImageTransformers {}

extension ImageTransforming {
    /// Applies `body` to every frame's 8-bit raster and marks the result transformed; nil if any frame
    /// yields nil.
    func mapFrames(of image: Image, hasAlpha: Bool? = nil, _ body: (PixelBuffer) -> PixelBuffer?) -> Image? {
        var frames: [ImageFrame] = []
        frames.reserveCapacity(image.frameCount)
        for frame in image.frames {
            guard let pixels = body(frame.pixels.converted(to: .rgba8)) else { return nil }
            frames.append(ImageFrame(pixels: pixels, duration: frame.duration))
        }
        return image.with(frames: frames, hasAlpha: hasAlpha ?? image.hasAlpha, isTransformed: true)
    }
}

/// `%f` formatting, as SDWebImage's keys print CGFloats.
func formatF(_ value: Double) -> String { String(format: "%f", value) }
