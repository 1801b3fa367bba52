import WebImageCore

/// A still image seen through the animated-decoder interface: one frame, decoded up front by its coder's
/// one-shot decode, so a thumbnail is shrunk during decode (libpng rows, libwebp's scaler) and the
/// orientation is applied as the options ask, exactly as ``ImageDecoding/decode(_:options:)`` gives it.
final class DecodedStillDecoder: AnimatedImageDecoder {
    let frameCount = 1
    private let image: Image

    init(image: Image) {
        self.image = image
    }

    var format: ImageFormat { image.format }
    var loopCount: Int { image.loopCount }
    var pixelSize: PixelSize { image.pixelSize }
    var hasAlpha: Bool { image.hasAlpha }
    var orientation: ImageOrientation { image.orientation }

    func frameDuration(at index: Int) -> Double { 0 }

    func frame(at index: Int) throws -> PixelBuffer {
        guard index == 0 else { throw WebImageError.badImageData(.frameOutOfRange(index: index, count: 1)) }
        return image.pixels
    }
}
