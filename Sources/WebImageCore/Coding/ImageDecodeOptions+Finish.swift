extension ImageDecodeOptions {
    /// Brings a decoder's output to what these options ask for: resampled to the target size (computed from
    /// the `source` size, since a decoder may already have shrunk it during decode), turned upright when
    /// ``applyOrientation`` is set, and stamped with the resolved scale and these options
    /// (``Image/decodeOptions``).
    ///
    /// Every coder ends its decode with this, so thumbnails, scale-down and orientation behave the same for
    /// every format.
    public func finish(_ image: Image, sourceSize: PixelSize) -> Image {
        finish(image, targetSize: targetSize(forSource: sourceSize, frameCount: image.frameCount))
    }

    /// Like ``finish(_:sourceSize:)``, with the target size already worked out (nil: full size).
    ///
    /// For decoders that scale each frame as it is composited: they plan the size from the frame count the
    /// headers give, and a damaged file may then deliver fewer frames, which must not change the size again.
    public func finish(_ image: Image, targetSize target: PixelSize?) -> Image {
        var frames = image.frames
        if let target, image.pixelSize != target {
            frames = frames.map { ImageFrame(pixels: Resampler.resample($0.pixels, to: target, kernel: thumbnailKernel),
                                            duration: $0.duration) }
        }
        var orientation = image.orientation
        if applyOrientation && orientation != .up {
            frames = frames.map { ImageFrame(pixels: $0.pixels.applying(orientation), duration: $0.duration) }
            orientation = .up
        }
        return image.with(frames: frames, scale: resolvedScale, orientation: orientation,
                          isThumbnail: target != nil || image.isThumbnail, decodeOptions: self)
    }
}
