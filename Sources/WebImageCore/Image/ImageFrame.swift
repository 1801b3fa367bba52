/// One fully composited frame of an image and how long it stays on screen.
public struct ImageFrame: Sendable, Hashable {
    public var pixels: PixelBuffer
    /// Seconds this frame is shown; 0 for a still image.
    public var duration: Double

    public init(pixels: PixelBuffer, duration: Double = 0) {
        self.pixels = pixels
        self.duration = duration
    }
}
