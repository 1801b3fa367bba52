extension ImageDecodeOptions {
    /// Throws `tooManyFrames` when an animation has more than ``maxFrameCount`` frames.
    ///
    /// Decoders that discover frames one by one (GIF) call it as they go, so a file with millions of frames
    /// is refused after ``maxFrameCount`` + 1 headers.
    public func checkFrameCount(_ frameCount: Int) throws {
        if frameCount > max(1, maxFrameCount) {
            throw WebImageError.badImageData(.tooManyFrames(limit: maxFrameCount))
        }
    }

    /// Throws `tooManyFrames` or `animationTooLarge` when decoding `frameCount` frames that composite
    /// `pixelCount` pixels in all is over ``maxFrameCount`` or ``maxAnimationPixelCount``.
    ///
    /// Call it from the headers, before decoding any frame. A single frame is never refused here (it is
    /// bounded by ``maxPixelCount``).
    public func checkAnimation(frameCount: Int, pixelCount: Int) throws {
        guard frameCount > 1 else { return }
        try checkFrameCount(frameCount)
        if pixelCount > maxAnimationPixelCount {
            throw WebImageError.badImageData(.animationTooLarge(frameCount: frameCount, pixelCount: pixelCount,
                                                                limit: maxAnimationPixelCount))
        }
    }

    /// ``checkAnimation(frameCount:pixelCount:)`` for `frameCount` frames on a `canvas`-sized screen.
    public func checkAnimation(frameCount: Int, canvas: PixelSize) throws {
        let (total, overflow) = max(0, frameCount).multipliedReportingOverflow(by: canvas.pixelCount)
        try checkAnimation(frameCount: frameCount, pixelCount: overflow ? .max : total)
    }
}
