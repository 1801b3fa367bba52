extension ImageFormat {
    /// The longest side an image written in this format may have, where the format itself sets one (imgproxy's
    /// `fix_size.go`): WebP's 16,383, AVIF's and HEIC's 16,384, GIF's 65,535, an icon's 256; nil for the others.
    public var maxSide: Int? {
        switch self {
        case .webp: 16_383
        case .avif, .heic: 16_384
        case .gif: 65_535
        case .ico: 256
        default: nil
        }
    }
}

extension Image {
    /// This image scaled down, every frame alike and the aspect ratio kept (each side rounded, at least one
    /// pixel), so that its longer side is `format`'s ``ImageFormat/maxSide``, as imgproxy does before saving;
    /// itself when it already fits. The service and the command line write through it; the encoders refuse a
    /// larger image rather than scale it unasked (``ImageEncodeOptions/maxPixelSize`` asks).
    public func fitted(to format: ImageFormat) -> Image {
        let size = pixels.size
        guard let limit = format.maxSide, max(size.width, size.height) > limit else { return self }
        let scale = Double(limit) / Double(max(size.width, size.height))
        let target = PixelSize(width: max(1, Int((Double(size.width) * scale).rounded())),
                               height: max(1, Int((Double(size.height) * scale).rounded())))
        return with(frames: frames.map { ImageFrame(pixels: Resampler.resample($0.pixels, to: target), duration: $0.duration) })
    }
}
