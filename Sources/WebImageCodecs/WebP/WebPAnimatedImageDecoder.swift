import Foundation
import WebImageCore

/// Lazy, thread-safe access to an animated WebP's composited frames.
///
/// libwebp's animation decoder only moves forward, so one reader is kept behind a lock: asking for the next
/// frame decodes just that frame, asking for an earlier one rewinds and replays from the first. The last
/// frame handed out is kept (at its delivered size) so repeated requests for it cost nothing.
final class WebPAnimatedImageDecoder: AnimatedImageDecoder {
    let format = ImageFormat.webp
    let pixelSize: PixelSize
    let loopCount: Int
    let hasAlpha: Bool
    let orientation: ImageOrientation
    private let profile: [UInt8]?
    private let options: ImageDecodeOptions
    private let frames: LazyFrames<WebPAnimationReader>

    init(_ data: Data, options: ImageDecodeOptions) throws {
        let reader = try WebPAnimationReader(data, options: options)
        pixelSize = reader.outputSize
        loopCount = reader.loopCount
        hasAlpha = reader.hasAlpha
        orientation = data.withUnsafeBytes { WebPOrientationReader.orientation(in: $0) }
        profile = data.withUnsafeBytes { WebPICCReader.profile(in: $0) }
        self.options = options
        frames = LazyFrames(reader, durations: options.firstFrameOnly ? [0] : reader.durations)
    }

    var frameCount: Int { frames.frameCount }

    func frameDuration(at index: Int) -> Double {
        frames.duration(at: index)
    }

    func frame(at index: Int) throws -> PixelBuffer {
        try frames.frame(at: index) { reader in
            if reader.nextIndex > index { reader.rewind() }
            while reader.nextIndex < index { try reader.skip() }
            var pixels = try reader.next()
            _ = ColorManagement.manage(&pixels, profile: profile, options: options)
            return pixels
        }
    }
}
