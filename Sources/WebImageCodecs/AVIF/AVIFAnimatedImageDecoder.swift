import Foundation
import WebImageCore

/// Lazy, thread-safe access to the frames of an AVIF image sequence (`avis`).
///
/// One libavif decoder is kept behind a lock; libavif decodes the next frame cheaply and seeks back to the
/// nearest keyframe for random access. The frame count and total pixels are checked against the options'
/// animation limits from the container before any frame is decoded. The last frame handed out is kept so
/// repeated requests for it cost nothing.
final class AVIFAnimatedImageDecoder: AnimatedImageDecoder {
    let format = ImageFormat.avif
    let pixelSize: PixelSize
    let loopCount = AVIFDecoding.loopCount
    let hasAlpha: Bool
    private let targetSize: PixelSize?
    private let options: ImageDecodeOptions
    private let frames: LazyFrames<AVIFDecoderSession>

    init(session: sending AVIFDecoderSession, options: ImageDecodeOptions) throws {
        let frameCount = options.firstFrameOnly ? 1 : session.frameCount
        try options.checkAnimation(frameCount: frameCount, canvas: session.displaySize)
        targetSize = options.targetSize(forSource: session.displaySize, frameCount: frameCount)
        pixelSize = targetSize ?? session.displaySize
        hasAlpha = session.hasAlpha
        self.options = options
        let durations = frameCount > 1 ? (0..<frameCount).map(session.duration(at:)) : [0]
        frames = LazyFrames(session, durations: durations)
    }

    var frameCount: Int { frames.frameCount }

    func frameDuration(at index: Int) -> Double {
        frames.duration(at: index)
    }

    func frame(at index: Int) throws -> PixelBuffer {
        try frames.frame(at: index) { session in
            var pixels = try AVIFDecoding.frame(session, at: index, size: targetSize, kernel: options.thumbnailKernel)
            _ = ColorManagement.manage(&pixels, color: session.color, options: options)
            return pixels
        }
    }
}
