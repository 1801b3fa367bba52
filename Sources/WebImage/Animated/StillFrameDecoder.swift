/// Presents an already decoded image through the animated-decoder interface, so a still image (or a format
/// without a frame-by-frame decoder) can back an ``AnimatedImage`` with one frame.
final class StillFrameDecoder: AnimatedImageDecoder {
    private let image: Image

    init(_ image: Image) {
        self.image = image
    }

    var format: ImageFormat { image.format }
    var pixelSize: PixelSize { image.pixelSize }
    var frameCount: Int { image.frameCount }
    var loopCount: Int { image.loopCount }
    var hasAlpha: Bool { image.hasAlpha }
    var orientation: ImageOrientation { image.orientation }

    func frameDuration(at index: Int) -> Double {
        image.frames.indices.contains(index) ? image.frames[index].duration : 0
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard image.frames.indices.contains(index) else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: image.frameCount))
        }
        return image.frames[index].pixels.converted(to: .rgba8)
    }
}
