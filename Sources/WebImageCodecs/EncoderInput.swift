import WebImageCore

/// What the AVIF and HEIF encoders start from: each frame shrunk to fit ``ImageEncodeOptions/maxPixelSize``
/// (keeping the aspect ratio, never enlarging) and kept at its own bit depth.
enum EncoderInput {
    static func fitted(_ pixels: PixelBuffer, options: ImageEncodeOptions) -> PixelBuffer {
        guard let limit = options.maxPixelSize, limit.width > 0, limit.height > 0 else { return pixels }
        let size = ImageGeometry.thumbnailSize(source: pixels.size, requested: limit, preserveAspectRatio: true)
        return size == pixels.size ? pixels : Resampler.resample(pixels, to: size)
    }
}
