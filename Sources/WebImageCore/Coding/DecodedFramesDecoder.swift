/// An image already decoded, seen through the animated-decoder interface: a still (or a format without a
/// frame-by-frame decoder) can then back an animated image or a frame-by-frame reader with its frames as they
/// were decoded (a thumbnail shrunk during decode, the orientation applied as the options asked).
public final class DecodedFramesDecoder: AnimatedImageDecoder {
    private let image: Image

    public init(_ image: Image) {
        self.image = image
    }

    public var format: ImageFormat { image.format }
    public var pixelSize: PixelSize { image.pixelSize }
    public var frameCount: Int { image.frameCount }
    public var loopCount: Int { image.loopCount }
    public var hasAlpha: Bool { image.hasAlpha }
    public var orientation: ImageOrientation { image.orientation }

    public func frameDuration(at index: Int) -> Double {
        image.frames.indices.contains(index) ? image.frames[index].duration : 0
    }

    public func frame(at index: Int) throws -> PixelBuffer {
        guard image.frames.indices.contains(index) else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: image.frameCount))
        }
        return image.frames[index].pixels
    }
}
