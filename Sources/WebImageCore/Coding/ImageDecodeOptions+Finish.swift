extension ImageDecodeOptions {
    /// Brings a decoder's output to what these options ask for: resampled to the target size (computed from
    /// the `source` size, since a decoder may already have shrunk it during decode), turned upright when
    /// ``applyOrientation`` is set, and stamped with the resolved scale and these options
    /// (``Image/decodeOptions``).
    ///
    /// Every coder ends its decode with this, so thumbnails, scale-down and orientation behave the same for
    /// every format.
    public func finish(_ image: Image, sourceSize: PixelSize) -> Image {
        var frames = image.frames
        var isThumbnail = image.isThumbnail
        if let target = targetSize(forSource: sourceSize, frameCount: frames.count) {
            if image.pixelSize != target {
                frames = frames.map { ImageFrame(pixels: Resampler.resample($0.pixels, to: target), duration: $0.duration) }
            }
            isThumbnail = true
        }
        var orientation = image.orientation
        if applyOrientation && orientation != .up {
            frames = frames.map { ImageFrame(pixels: $0.pixels.applying(orientation), duration: $0.duration) }
            orientation = .up
        }
        return image.with(frames: frames, scale: resolvedScale, orientation: orientation, isThumbnail: isThumbnail,
                          decodeOptions: self)
    }
}
