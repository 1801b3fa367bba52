/// Anything that hands out an animation's frames one at a time: what ``AnimatedImagePlayer`` plays.
///
/// ``AnimatedImage`` is the usual one; a renderer can supply its own (frames generated on the fly, say).
public protocol AnimatedFrameProvider: Sendable {
    var frameCount: Int { get }
    /// How often the animation plays; 0 = forever.
    var loopCount: Int { get }
    /// The canvas size of every frame.
    var pixelSize: PixelSize { get }
    /// Seconds frame `index` is shown.
    func frameDuration(at index: Int) -> Double
    /// Frame `index`, composited. May be slow: the player calls it off the clock's thread when it can.
    func frame(at index: Int) throws -> PixelBuffer
}

extension AnimatedFrameProvider {
    /// Bytes one decoded frame takes (RGBA8), the unit of the player's buffer budget.
    public var bytesPerFrame: Int { max(1, pixelSize.pixelCount * 4) }
}
