import WebImageCore

/// A still PNG seen through the animated-decoder interface: one frame, decoded up front.
final class PNGStillFrameDecoder: AnimatedImageDecoder {
    let format = ImageFormat.png
    let frameCount = 1
    let loopCount = 0
    private let image: Image

    init(image: Image) {
        self.image = image
    }

    var pixelSize: PixelSize { image.pixelSize }
    var hasAlpha: Bool { image.hasAlpha }

    func frameDuration(at index: Int) -> Double { 0 }

    func frame(at index: Int) throws -> PixelBuffer {
        guard index == 0 else { throw WebImageError.badImageData(.frameOutOfRange(index: index, count: 1)) }
        return image.pixels
    }
}
