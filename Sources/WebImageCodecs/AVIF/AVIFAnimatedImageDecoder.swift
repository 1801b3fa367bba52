import Foundation
import Synchronization
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
    let frameCount: Int
    let loopCount = AVIFDecoding.loopCount
    let hasAlpha: Bool
    private let durations: [Double]
    private let targetSize: PixelSize?
    private let options: ImageDecodeOptions
    private let state: Mutex<State>

    private struct State {
        let session: AVIFDecoderSession
        var last: (index: Int, pixels: PixelBuffer)?
    }

    init(session: sending AVIFDecoderSession, options: ImageDecodeOptions) throws {
        frameCount = options.firstFrameOnly ? 1 : session.frameCount
        try options.checkAnimation(frameCount: frameCount, canvas: session.displaySize)
        targetSize = options.targetSize(forSource: session.displaySize, frameCount: frameCount)
        pixelSize = targetSize ?? session.displaySize
        hasAlpha = session.hasAlpha
        self.options = options
        durations = frameCount > 1 ? (0..<frameCount).map(session.duration(at:)) : [0]
        state = Mutex(State(session: session))
    }

    func frameDuration(at index: Int) -> Double {
        durations.indices.contains(index) ? durations[index] : 0
    }

    func frame(at index: Int) throws -> PixelBuffer {
        guard index >= 0, index < frameCount else {
            throw WebImageError.badImageData(.frameOutOfRange(index: index, count: frameCount))
        }
        return try state.withLock { state in
            if let last = state.last, last.index == index { return last.pixels }
            var pixels = try AVIFDecoding.frame(state.session, at: index, size: targetSize)
            _ = ColorManagement.manage(&pixels, profile: state.session.iccProfile, options: options)
            state.last = (index, pixels)
            return pixels
        }
    }
}
