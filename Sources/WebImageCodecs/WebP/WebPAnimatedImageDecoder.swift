import Foundation
import Synchronization
import WebImageCore

/// Lazy, thread-safe access to an animated WebP's composited frames.
///
/// libwebp's animation decoder only moves forward, so one reader is kept behind a lock: asking for the next
/// frame decodes just that frame, asking for an earlier one rewinds and replays from the first. The last
/// frame handed out is kept (at its delivered size) so repeated requests for it cost nothing.
final class WebPAnimatedImageDecoder: AnimatedImageDecoder {
    let format = ImageFormat.webp
    let pixelSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    let hasAlpha: Bool
    let orientation: ImageOrientation
    private let durations: [Double]
    private let profile: [UInt8]?
    private let options: ImageDecodeOptions
    private let state: Mutex<State>

    private struct State {
        let reader: WebPAnimationReader
        var last: (index: Int, pixels: PixelBuffer)?
    }

    init(_ data: Data, options: ImageDecodeOptions) throws {
        let reader = try WebPAnimationReader(data, options: options)
        pixelSize = reader.outputSize
        frameCount = options.firstFrameOnly ? 1 : reader.frameCount
        loopCount = reader.loopCount
        hasAlpha = reader.hasAlpha
        durations = options.firstFrameOnly ? [0] : reader.durations
        orientation = data.withUnsafeBytes { WebPOrientationReader.orientation(in: $0) }
        profile = data.withUnsafeBytes { WebPICCReader.profile(in: $0) }
        self.options = options
        state = Mutex(State(reader: reader))
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
            if state.reader.nextIndex > index { state.reader.rewind() }
            while state.reader.nextIndex < index { try state.reader.skip() }
            var pixels = try state.reader.next()
            _ = ColorManagement.manage(&pixels, profile: profile, options: options)
            state.last = (index, pixels)
            return pixels
        }
    }
}
